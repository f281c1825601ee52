"""The judge of grouped-query-attention: values against F.scaled_dot_product_attention with
enable_gqa=True, in float64, gradients of q, k and v against its backward, on several seeds and
head counts (grouped, multi-query with Hkv = 1, multi-head with Hkv = Hq). The causal triangle is
given to SDPA as a boolean attn_mask built here (top left, tril of ones), not as is_causal, so the
expected values do not depend on how a torch version treats is_causal when L != S."""

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("grouped-query-attention")
SEEDS = (0, 1, 2)


def qkv(b, hq, hkv, length, s, d, seed, dtype=torch.float64, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(b, hq, length, d, generator=g, dtype=torch.float64) * scale
    k = torch.randn(b, hkv, s, d, generator=g, dtype=torch.float64) * scale
    v = torch.randn(b, hkv, s, d, generator=g, dtype=torch.float64)
    return q.to(dtype), k.to(dtype), v.to(dtype)


def sdpa(q, k, v, causal):
    mask = None
    if causal:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)


def compare(solution, q, k, v, what, causal=False, atol=1e-10, rtol=1e-8):
    got = need(solution, "gqa_attention")(q, k, v, causal=causal)
    expect_tensor(got, sdpa(q, k, v, causal), what, atol=atol, rtol=rtol)


def heads(q, k):
    return f"Hq = {q.shape[1]}, Hkv = {k.shape[1]}"


@TESTS.test("returns (B, Hq, L, D) in q's dtype, float32 and float64",
            hint="the output has one head per QUERY head: Hq, not Hkv")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        q, k, v = qkv(2, 8, 2, 4, 6, 8, 0, dtype)
        got = need(solution, "gqa_attention")(q, k, v)
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != (2, 8, 4, 8) or got.dtype != dtype:
            raise Wrong(f"for q {tuple(q.shape)} and k, v {tuple(k.shape)} in {dtype}: expected a"
                        f" (2, 8, 4, 8) {dtype} tensor, got "
                        + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))


@TESTS.test("each group of Hq // Hkv consecutive query heads reads its own kv head"
            " (Hq = 6, Hkv = 2 and Hq = 8, Hkv = 4, kv head j's values all equal j)",
            hint="query head h uses kv head h // (Hq // Hkv): repeat_interleave k and v along"
                 " dim 1 (0, 0, 0, 1, 1, 1), not repeat (0, 1, 0, 1, 0, 1)")
def test_head_pairing(solution):
    for hq, hkv in ((6, 2), (8, 4)):
        q, k, _ = qkv(1, hq, hkv, 3, 5, 8, 0)
        v = torch.arange(hkv, dtype=torch.float64).reshape(1, hkv, 1, 1).expand(1, hkv, 5, 8).clone()
        got = need(solution, "gqa_attention")(q, k, v)
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != (1, hq, 3, 8):
            raise Wrong(f"Hq = {hq}, Hkv = {hkv}: expected a (1, {hq}, 3, 8) tensor, got "
                        + (f"{tuple(got.shape)}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))
        for h in range(hq):
            expected = h // (hq // hkv)
            values = got[0, h].detach().double()
            if not torch.allclose(values, torch.full_like(values, float(expected)), atol=1e-9):
                seen = float(values.reshape(-1)[0])
                which = (f"the values of kv head {round(seen)}"
                         if torch.allclose(values, torch.full_like(values, seen), atol=1e-9)
                         and abs(seen - round(seen)) < 1e-9 else "a mix of kv heads")
                raise Wrong(f"Hq = {hq}, Hkv = {hkv}: query head {h} got {which},"
                            f" expected kv head {expected} (= {h} // {hq // hkv})")


@TESTS.test("equals scaled_dot_product_attention(enable_gqa=True), Hq = 8, Hkv = 2"
            " (3 seeds, float64)",
            hint="scores are q @ k^T / sqrt(D) for the kv head of each query head, softmax over"
                 " the keys (the last dimension), then the weights @ v")
def test_matches_sdpa(solution):
    for seed in SEEDS:
        q, k, v = qkv(2, 8, 2, 5, 7, 16, seed)
        compare(solution, q, k, v, f"seed {seed}, {heads(q, k)}")


@TESTS.test("multi-query attention: Hkv = 1 (Hq = 4 and 6), 3 seeds",
            hint="with one kv head every query head uses it: G = Hq")
def test_multi_query(solution):
    for seed, hq in zip(SEEDS, (4, 6, 4), strict=True):
        q, k, v = qkv(2, hq, 1, 4, 6, 8, seed)
        compare(solution, q, k, v, f"seed {seed}, {heads(q, k)}")


@TESTS.test("multi-head attention: Hkv = Hq = 4 and Hkv = Hq = 1, 3 seeds",
            hint="with Hkv = Hq the group size is 1 and query head h uses kv head h")
def test_multi_head(solution):
    for seed in SEEDS:
        for h in (4, 1):
            q, k, v = qkv(2, h, h, 4, 6, 8, seed)
            compare(solution, q, k, v, f"seed {seed}, {heads(q, k)}")


@TESTS.test("causal=True equals the top-left causal mask when L == S (Hq = 8, Hkv = 2)",
            hint="query i may attend to keys 0..i, its own position included: fill the scores"
                 " above the diagonal with -inf before the softmax")
def test_causal(solution):
    for seed in SEEDS:
        q, k, v = qkv(2, 8, 2, 6, 6, 8, seed)
        compare(solution, q, k, v, f"seed {seed}, causal", causal=True)


@TESTS.test("causal=True when L != S (3 queries and 5 keys, 5 queries and 3 keys)",
            hint="the triangle is aligned at the top left, as is_causal: query i sees keys"
                 " 0..i whatever S is, tril of an (L, S) matrix of ones")
def test_causal_rectangular(solution):
    for seed, (length, s) in zip(SEEDS, ((3, 5), (5, 3), (3, 5)), strict=True):
        q, k, v = qkv(1, 4, 2, length, s, 8, seed)
        compare(solution, q, k, v, f"seed {seed}, L = {length}, S = {s}, causal", causal=True)


@TESTS.test("the scale is 1 / sqrt(D) of the head dimension: D = 1 and D = 64",
            hint="divide by the square root of q.shape[-1], the size of one head, not of the"
                 " model, the number of heads or the number of keys")
def test_scale(solution):
    for seed, d in zip(SEEDS, (1, 64, 64), strict=True):
        q, k, v = qkv(1, 4, 2, 3, 9, d, seed)
        compare(solution, q, k, v, f"seed {seed}, D = {d}")


@TESTS.test("length 1 and batch 1: one query, one key, with and without causal",
            hint="with one key the softmax weight is 1: each query head's output is its kv"
                 " head's v")
def test_length_one(solution):
    for causal in (False, True):
        q, k, v = qkv(1, 4, 2, 1, 1, 8, 0)
        compare(solution, q, k, v, f"B = L = S = 1, causal={causal}", causal=causal)


@TESTS.test("scores in the thousands (q and k times 40) stay finite and exact",
            hint="subtract each row's max before exp, or use torch.softmax, which does")
def test_large_logits(solution):
    q, k, v = qkv(1, 4, 2, 4, 6, 8, 0, scale=40.0)
    compare(solution, q, k, v, "q and k scaled by 40", atol=1e-8, rtol=1e-6)
    compare(solution, q, k, v, "q and k scaled by 40, causal", causal=True, atol=1e-8, rtol=1e-6)


@TESTS.test("gradients reach q, k and v and equal SDPA's (each kv head sums over its group)",
            hint="build the result from differentiable torch ops (repeat_interleave, expand,"
                 " reshape, matmul, softmax): autograd then adds up the gradient of each kv head"
                 " over the query heads that share it")
def test_gradients(solution):
    for causal in (False, True):
        leaves = [t.requires_grad_() for t in qkv(2, 6, 2, 4, 5, 8, 2)]
        got = need(solution, "gqa_attention")(*leaves, causal=causal)
        if not isinstance(got, torch.Tensor) or got.grad_fn is None:
            raise Wrong("the output has no grad_fn: autograd cannot reach q, k and v")
        upstream = torch.randn(got.shape, generator=torch.Generator().manual_seed(5),
                               dtype=got.dtype)
        mine = torch.autograd.grad((got * upstream).sum(), leaves, allow_unused=True)
        refs = [t.detach().clone().requires_grad_() for t in leaves]
        theirs = torch.autograd.grad((sdpa(*refs, causal) * upstream).sum(), refs)
        for name, a, b in zip("qkv", mine, theirs, strict=True):
            if a is None:
                raise Wrong(f"no gradient reaches {name}")
            # A gradient that is 0 (a masked key) comes out of SDPA as float64 noise (1e-19) whose
            # digits depend on the CPU's vector width: the message would quote them. It is 0.
            b = torch.where(b.abs() < 1e-15, torch.zeros_like(b), b)
            expect_tensor(a, b, f"the gradient of {name} (causal={causal})", atol=1e-10, rtol=1e-8)
