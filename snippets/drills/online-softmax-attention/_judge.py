"""The judge of online-softmax-attention: values against F.scaled_dot_product_attention in
float64 (the causal triangle given as a boolean attn_mask built here, top left, so the expected
values do not depend on how a torch version treats is_causal when L != S), gradients of q, k and v
against its backward, blocks that do not divide S, block sizes 1 and >= S, scores in the
thousands, and a TorchDispatchMode that records every tensor the solution's ops create and refuses
one with as many elements as the (L, S) score matrix."""

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("online-softmax-attention")
SEEDS = (0, 1, 2)


def qkv(b, h, length, s, d, seed, dtype=torch.float64, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(b, h, length, d, generator=g, dtype=torch.float64) * scale
    k = torch.randn(b, h, s, d, generator=g, dtype=torch.float64) * scale
    v = torch.randn(b, h, s, d, generator=g, dtype=torch.float64)
    return q.to(dtype), k.to(dtype), v.to(dtype)


def sdpa(q, k, v, causal):
    mask = None
    if causal:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


def compare(solution, q, k, v, block_size, what, causal=False, atol=1e-10, rtol=1e-8):
    got = need(solution, "blockwise_attention")(q, k, v, block_size, causal=causal)
    expect_tensor(got, sdpa(q, k, v, causal), what, atol=atol, rtol=rtol)


class Largest(TorchDispatchMode):
    """The largest tensor any op creates while the mode is on, and the op that made it."""

    def __init__(self):
        super().__init__()
        self.numel, self.op, self.shape = 0, "", ()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in tree_leaves(out):
            if isinstance(t, torch.Tensor) and t.numel() > self.numel:
                self.numel, self.op, self.shape = t.numel(), func.__name__, tuple(t.shape)
        return out


@TESTS.test("returns (B, H, L, D) in q's dtype, float32 and float64",
            hint="the output is one row of D numbers per query: the accumulator divided by the"
                 " running sum")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        q, k, v = qkv(2, 3, 4, 8, 8, 0, dtype)
        got = need(solution, "blockwise_attention")(q, k, v, 3)
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != (2, 3, 4, 8) or got.dtype != dtype:
            raise Wrong(f"for q {tuple(q.shape)}, k, v {tuple(k.shape)}, block_size 3 in {dtype}:"
                        f" expected a (2, 3, 4, 8) {dtype} tensor, got "
                        + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))


@TESTS.test("equals scaled_dot_product_attention, S = 12 in blocks of 4 (3 seeds, float64;"
            " one seed in float32)",
            hint="when a block raises a query's max from m to m_new, multiply the running sum AND"
                 " the accumulator by exp(m - m_new) before adding the block; divide by the sum"
                 " only once, after the last block")
def test_matches_sdpa(solution):
    for seed in SEEDS:
        compare(solution, *qkv(2, 3, 5, 12, 16, seed), 4, f"seed {seed}, block_size 4")
    compare(solution, *qkv(2, 3, 5, 12, 16, 0, torch.float32), 4, "float32, block_size 4",
            atol=1e-5, rtol=1e-5)


@TESTS.test("a last block shorter than block_size: S = 13 in blocks of 4, S = 10 in blocks of 3",
            hint="loop over range(0, S, block_size) and end each block at min(start + block_size,"
                 " S); range(S // block_size) drops the keys of the last, shorter block")
def test_partial_last_block(solution):
    for seed, (s, block) in zip(SEEDS, ((13, 4), (10, 3), (13, 4)), strict=True):
        compare(solution, *qkv(2, 2, 5, s, 8, seed), block, f"seed {seed}, S = {s}, block_size {block}")


@TESTS.test("block_size 1, block_size == S and block_size > S (one block of every key)",
            hint="with block_size 1 each block holds one key; with block_size >= S there is one"
                 " block: slicing k[..., start:start + block_size, :] past S is fine")
def test_block_size_extremes(solution):
    q, k, v = qkv(2, 2, 5, 9, 8, 1)
    for block in (1, 9, 100):
        compare(solution, q, k, v, block, f"S = 9, block_size {block}")


@TESTS.test("causal=True equals the top-left causal mask when L == S, block sizes 1, 3, 4, 8",
            hint="mask by GLOBAL key position: in the block that starts at `start`, key column c is"
                 " key start + c, and query i may see it only if start + c <= i")
def test_causal(solution):
    for seed in SEEDS:
        q, k, v = qkv(2, 2, 8, 8, 8, seed)
        for block in (1, 3, 4, 8):
            compare(solution, q, k, v, block, f"seed {seed}, block_size {block}, causal", causal=True)


@TESTS.test("causal=True when L != S (4 queries and 10 keys, 10 queries and 4 keys), blocks of 3",
            hint="the triangle is aligned at the top left, as is_causal: query i sees keys 0..i"
                 " whatever S is")
def test_causal_rectangular(solution):
    for seed, (length, s) in zip(SEEDS, ((4, 10), (10, 4), (4, 10)), strict=True):
        compare(solution, *qkv(1, 2, length, s, 8, seed), 3,
                f"seed {seed}, L = {length}, S = {s}, block_size 3, causal", causal=True)


@TESTS.test("scores in the thousands (q and k times 40) stay finite and exact, with and without"
            " causal; and rows whose every score is below -1000",
            hint="exp of a score above about 709 is inf in float64 (above about 88 in float32), and"
                 " below about -745 it is 0: subtract the running max, which starts at -inf (not"
                 " 0), before exp, and rescale by exp(m - m_new)")
def test_large_logits(solution):
    q, k, v = qkv(1, 2, 6, 10, 8, 0, scale=40.0)
    for causal in (False, True):
        compare(solution, q, k, v, 3, f"q and k scaled by 40, block_size 3, causal={causal}",
                causal=causal, atol=1e-8, rtol=1e-6)
    # q > 0 and k < 0 in every coordinate: every score is between about -14,000 and -1,500
    q, k = 2 * q.abs(), -k.abs()
    compare(solution, q, k, v, 3, "every score below -1000, block_size 3", atol=1e-8, rtol=1e-6)


@TESTS.test("never forms an (L, S) matrix: with L = 16, S = 20, D = 2 and blocks of 6 or 1,"
            " no tensor created has L * S = 320 elements or more",
            hint="score one block at a time: q @ k[..., start:stop, :].transpose(-2, -1) is"
                 " (L, block); build the causal mask per block from the block's key positions,"
                 " not as one (L, S) triangle")
def test_no_full_matrix(solution):
    q, k, v = qkv(1, 1, 16, 20, 2, 0)
    fn = need(solution, "blockwise_attention")
    for causal in (False, True):
        for block in (6, 1):
            with torch.no_grad(), Largest() as largest:
                out = fn(q, k, v, block, causal=causal)
            expect_tensor(out, sdpa(q, k, v, causal), f"block_size {block}, causal={causal}",
                          atol=1e-10, rtol=1e-8)
            if largest.numel >= 16 * 20:
                raise Wrong(f"block_size {block}, causal={causal}: aten.{largest.op} created a"
                            f" {largest.shape} tensor of {largest.numel} elements, as many as the"
                            f" (16, 20) score matrix or more")


@TESTS.test("length 1 and batch 1: one query and one key, block_size 1 and 4, with and without"
            " causal",
            hint="with one key its weight is 1: the output is v")
def test_length_one(solution):
    q, k, v = qkv(1, 1, 1, 1, 4, 0)
    for block in (1, 4):
        for causal in (False, True):
            compare(solution, q, k, v, block, f"L = S = 1, block_size {block}, causal={causal}",
                    causal=causal)


@TESTS.test("gradients reach q, k and v and equal scaled_dot_product_attention's"
            " (S = 7 in blocks of 3, float64)",
            hint="build the result from differentiable torch ops: no .item() or .numpy(), no"
                 " torch.no_grad() around the loop, no writes into q, k or v")
def test_gradients(solution):
    for causal in (False, True):
        leaves = [t.requires_grad_() for t in qkv(2, 2, 5, 7, 8, 2)]
        got = need(solution, "blockwise_attention")(*leaves, 3, causal=causal)
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
            expect_tensor(a, b, f"the gradient of {name} (causal={causal})", atol=1e-9, rtol=1e-7)
