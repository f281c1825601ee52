"""The judge of kv-cache. The trusted values come from the model's own uncached forward, which
runs torch's F.scaled_dot_product_attention with is_causal=True over the whole sequence: the logits
of every position, and (read with a forward hook on each block's qkv projection) the keys and
values each block computes. The model is a copy of the starter's TinyGPT, with the same weights
for the same seed, in float64 unless a test says otherwise. The greedy tokens are those of the
loop that recomputes model(sequence) at every step. That the cached path does the work of the new
tokens only is counted with torch.utils.flop_counter.FlopCounterMode."""

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

TESTS = Tests("kv-cache")
SEEDS = (0, 1, 2)
F64 = dict(atol=1e-9, rtol=1e-9)
VOCAB, LAYERS, HEADS, HEAD_DIM = 64, 2, 4, 8


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)  # q, k and v, in that order, side by side
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):  # (B, T, C) -> (B, T, C), causal, no cache
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=-1)
        q, k, v = (z.view(b, t, self.n_heads, c // self.n_heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, H, T, Dh)
        return self.proj(y.transpose(1, 2).reshape(b, t, c))


class Block(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d_model), SelfAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    """The fixed decoder (the judge builds its own copy of this class, with the same weights):
    token embedding plus learned positions, 2 pre-norm blocks of causal self-attention (4 heads
    of 8 dimensions) and an MLP, a final LayerNorm and a head to the vocabulary."""

    def __init__(self, seed=0, vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.max_len = max_len
        with torch.random.fork_rng():  # the weights depend on `seed` only
            torch.manual_seed(seed)
            self.tok_emb, self.pos_emb = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
            self.blocks = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
            self.ln_f, self.head = nn.LayerNorm(d_model), nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens):  # (B, T) int64 -> logits (B, T, vocab), the whole sequence
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.tok_emb(tokens) + self.pos_emb(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def make_model(seed, dtype=torch.float64):
    return TinyGPT(seed).to(dtype)


def random_tokens(b, t, seed):
    return torch.randint(0, VOCAB, (b, t), generator=torch.Generator().manual_seed(100 + seed))


def describe(value):
    if isinstance(value, torch.Tensor):
        return f"a tensor of shape {tuple(value.shape)}"
    return type(value).__name__


def step(solution, model, tokens, cache=None):
    """forward_step, with the form of its answer checked: (logits, cache)."""
    out = need(solution, "forward_step")(model, tokens, cache)
    if not isinstance(out, tuple) or len(out) != 2:
        raise Wrong(f"forward_step should return (logits, new_cache), got {describe(out)}")
    logits, new_cache = out
    b, t = tokens.shape
    if not isinstance(logits, torch.Tensor) or tuple(logits.shape) != (b, t, VOCAB):
        raise Wrong(f"for {t} new tokens in a batch of {b}: expected logits of shape {(b, t, VOCAB)},"
                    f" got {describe(logits)}")
    return logits, new_cache


def check_cache(new_cache, b, t, dtype, what):
    """A list of one (k, v) pair per block, each (B, H, T, Dh) in the model's dtype."""
    if not isinstance(new_cache, (list, tuple)) or len(new_cache) != LAYERS:
        raise Wrong(f"{what}: expected a list of {LAYERS} (k, v) pairs, one per block, got "
                    + (f"a {type(new_cache).__name__} of length {len(new_cache)}"
                       if isinstance(new_cache, (list, tuple)) else describe(new_cache)))
    for layer, entry in enumerate(new_cache):
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise Wrong(f"{what}: block {layer}'s entry: expected a (k, v) pair of tensors, got "
                        + describe(entry))
        for name, z in zip("kv", entry, strict=True):
            if not isinstance(z, torch.Tensor) or tuple(z.shape) != (b, HEADS, t, HEAD_DIM):
                raise Wrong(f"{what}: block {layer}'s {name}: expected shape (B, H, T, Dh) ="
                            f" {(b, HEADS, t, HEAD_DIM)}, got {describe(z)}")
            if z.dtype != dtype:
                raise Wrong(f"{what}: block {layer}'s {name}: expected dtype {dtype}, got {z.dtype}")


def trusted_kv(model, tokens):
    """The keys and values each block computes in the uncached forward: (B, H, T, Dh) each."""
    found, hooks = [], []
    for block in model.blocks:
        def keep(module, args, out):
            b, t, three_c = out.shape
            _, k, v = out.detach().split(three_c // 3, dim=-1)
            found.append(tuple(z.reshape(b, t, HEADS, HEAD_DIM).transpose(1, 2) for z in (k, v)))
        hooks.append(block.attn.qkv.register_forward_hook(keep))
    try:
        with torch.no_grad():
            model(tokens)
    finally:
        for hook in hooks:
            hook.remove()
    return found


def compare_cache(new_cache, model, tokens, what):
    for layer, (pair, trusted) in enumerate(zip(new_cache, trusted_kv(model, tokens), strict=True)):
        for name, got, expected in zip("kv", pair, trusted, strict=True):
            expect_tensor(got, expected, f"{what}: block {layer}'s {name}", **F64)


def greedy_uncached(model, prompt, steps):
    seq = prompt
    with torch.no_grad():
        for _ in range(steps):
            seq = torch.cat([seq, model(seq)[:, -1].argmax(-1, keepdim=True)], dim=1)
    return seq


def check_generate(solution, model, prompt, steps, what):
    with torch.no_grad():
        got = need(solution, "generate")(model, prompt, steps)
    expected = greedy_uncached(model, prompt, steps)
    if not isinstance(got, torch.Tensor) or got.shape != expected.shape:
        raise Wrong(f"{what}: expected tokens of shape {tuple(expected.shape)} (the prompt, then"
                    f" {steps} new ones), got {describe(got)}")
    if got.dtype != torch.int64:
        raise Wrong(f"{what}: expected int64 tokens, got {got.dtype}")
    if not torch.equal(got, expected):
        row, col = (int(i) for i in (got != expected).nonzero()[0])
        where = "in the prompt" if col < prompt.shape[1] else f"at new token {col - prompt.shape[1]}"
        raise Wrong(f"{what}: the first difference is in row {row} {where} (position {col}):"
                    f" got {got[row].tolist()}, expected {expected[row].tolist()}")


def decode(solution, model, b, t0, new, seed, what, dtype_check=None, **tol):
    """A prefill of t0 tokens, then one forward_step per chunk length in `new`; every call's logits
    against the uncached forward over the whole sequence so far."""
    seq = random_tokens(b, t0 + sum(new), seed)
    with torch.no_grad():
        full = model(seq)
        logits, cache = step(solution, model, seq[:, :t0])
        expect_tensor(logits, full[:, :t0], f"{what}: the prefill of {t0}", **(tol or F64))
        t = t0
        for number, n in enumerate(new):
            logits, cache = step(solution, model, seq[:, t:t + n], cache)
            label = f"position {t}" if n == 1 else f"positions {t}..{t + n - 1}"
            expect_tensor(logits, full[:, t:t + n],
                          f"{what}: call {number + 1} after the prefill ({n} new, {label})",
                          **(tol or F64))
            if dtype_check is not None:
                check_cache(cache, b, t + n, dtype_check, f"{what}: the cache after call {number + 1}")
            t += n


def flops(fn):
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


@TESTS.test("the prefill (no cache) returns the logits of model(tokens), 3 seeds, B = 2, T = 7",
            hint="with cache=None, forward_step is forward: embeddings plus positions 0..T-1, every"
                 " block, ln_f and the head; return the logits and the cache")
def test_prefill(solution):
    for seed in SEEDS:
        model, tokens = make_model(seed), random_tokens(2, 7, seed)
        with torch.no_grad():
            logits, _ = step(solution, model, tokens)
            expect_tensor(logits, model(tokens), f"seed {seed}: the prefill's logits", **F64)


@TESTS.test("the prefill's cache: one (k, v) pair per block, each (B, H, T, Dh), equal to the keys"
            " and values that block computes",
            hint="cache each block's own k and v after the qkv projection and the split into heads,"
                 " (B, H, T, Dh), not the hidden states; build one new pair per block")
def test_cache_layout(solution):
    for seed in SEEDS:
        model, tokens = make_model(seed), random_tokens(2, 6, seed)
        with torch.no_grad():
            _, cache = step(solution, model, tokens)
        check_cache(cache, 2, 6, torch.float64, f"seed {seed}: the prefill's cache")
        compare_cache(cache, model, tokens, f"seed {seed}: the prefill's cache")


@TESTS.test("each decode step (one token, right after a prefill of 5) gives the logits of the"
            " uncached forward over the whole prefix, 3 seeds, 4 steps",
            hint="the new token is at position T_past (the cache's length), not 0; it attends to"
                 " every cached key and to its own (no top-left causal triangle), so append its k"
                 " and v, once and along dim 2, before attending")
def test_decode_step(solution):
    for seed in SEEDS:
        decode(solution, make_model(seed), 2, 5, [1, 1, 1, 1], seed, f"seed {seed}")


@TESTS.test("the cache grows by one per step in every block, (B, H, T, Dh), and holds the uncached"
            " keys and values of the whole sequence",
            hint="concatenate the new k and v once, along the time dimension (dim 2), and return"
                 " that: after a step the cache is one longer, not two")
def test_cache_grows(solution):
    model, seq = make_model(1), random_tokens(2, 9, 1)
    with torch.no_grad():
        _, cache = step(solution, model, seq[:, :4])
        for t in range(4, 9):
            _, cache = step(solution, model, seq[:, t:t + 1], cache)
            check_cache(cache, 2, t + 1, torch.float64, f"after the step at position {t}")
            compare_cache(cache, model, seq[:, :t + 1], f"after the step at position {t}")


@TESTS.test("several new tokens at once with a cache (chunks of 3, then 2, then 1 after a prefill"
            " of 4) give the uncached logits",
            hint="with a cache, new token i may see keys 0..T_past + i: the causal triangle sits at"
                 " the bottom right of the (T_new, T_past + T_new) scores, tril(diagonal=T_past)")
def test_chunked(solution):
    for seed in SEEDS:
        decode(solution, make_model(seed), 2, 4, [3, 2, 1], seed, f"seed {seed}")


@TESTS.test("generate gives the greedy tokens of recomputing the whole sequence, 3 seeds, B = 3,"
            " a prompt of 5, 8 steps",
            hint="the first new token is the argmax of the prefill's last logits; then feed only"
                 " that token with the cache, never the prompt's last token again")
def test_generate(solution):
    for seed in SEEDS:
        check_generate(solution, make_model(seed), random_tokens(3, 5, seed), 8, f"seed {seed}")


@TESTS.test("only the new tokens are computed: a step after 20 cached tokens, and generate (a"
            " prompt of 4, 20 steps), count at most 1.5 x the FLOPs of that work",
            hint="a decode step runs one row through every layer and one query against the cached"
                 " keys; generate prefills once, then calls forward_step on one token with the cache")
def test_incremental(solution):
    model, seq = make_model(0), random_tokens(2, 24, 0)
    b, c = 2, HEADS * HEAD_DIM

    def one_token_work(keys):
        # One row through every layer (the model's own forward on one token; FlopCounterMode counts
        # its linear layers, not its SDPA on CPU), plus one query against `keys` keys in each
        # block: q @ k^T and weights @ v, 2 * B * C * keys FLOPs each.
        return flops(lambda: model(seq[:, :1])) + LAYERS * 4 * b * c * keys

    with torch.no_grad():
        _, cache = step(solution, model, seq[:, :20])
    got = flops(lambda: step(solution, model, seq[:, 20:21], cache))
    bound = 1.5 * one_token_work(21)
    if got > bound:
        raise Wrong(f"a step with 20 cached tokens: expected at most {bound:.0f} FLOPs (1.5 x one"
                    f" token's), got {got} ({got / one_token_work(21):.1f} x one token's)")
    prompt = seq[:, :4]
    work = flops(lambda: model(prompt)) + LAYERS * 4 * b * c * 4 * 4 \
        + sum(one_token_work(t + 1) for t in range(4, 23))
    got = flops(lambda: need(solution, "generate")(model, prompt, 20))
    if got > 1.5 * work:
        raise Wrong(f"generate, a prompt of 4 and 20 steps: expected at most {1.5 * work:.0f} FLOPs"
                    f" (1.5 x a prefill and 19 one-token steps), got {got}"
                    f" ({got / work:.1f} x that work)")


@TESTS.test("a prompt of length 1 in a batch of 1: prefill, cache, decode steps and generate",
            hint="with one prompt token the cache is (1, H, 1, Dh) and the first step is at"
                 " position 1")
def test_length_one(solution):
    for seed in SEEDS:
        model = make_model(seed)
        decode(solution, model, 1, 1, [1, 1, 1], seed, f"seed {seed}, B = 1", dtype_check=torch.float64)
        check_generate(solution, model, random_tokens(1, 1, seed), 6, f"seed {seed}, B = 1, T0 = 1")


@TESTS.test("generation up to max_len: a prompt of 3, 29 steps, positions up to 31",
            hint="positions run up to model.max_len - 1; a position past the cache's end indexes"
                 " pos_emb out of range")
def test_max_length(solution):
    for seed in SEEDS:
        check_generate(solution, make_model(seed), random_tokens(2, 3, seed), 29, f"seed {seed}")


@TESTS.test("a float32 model: float32 logits and cache, within 1e-5 of the uncached forward",
            hint="compute in the model's dtype: do not build the mask or the scores in float64")
def test_float32(solution):
    for seed in SEEDS:
        decode(solution, make_model(seed, torch.float32), 2, 5, [1, 2, 1], seed,
               f"seed {seed}, float32", dtype_check=torch.float32, atol=1e-5, rtol=1e-5)


@TESTS.test("gradients through the cache: a decode step's logits give the uncached forward's"
            " gradients for every parameter (float64)",
            hint="build the cache from differentiable ops: no .detach(), torch.no_grad() or"
                 " .item() inside forward_step")
def test_gradients(solution):
    for seed in (0, 1):
        model, seq = make_model(seed), random_tokens(2, 6, seed)
        params = [p for _, p in model.named_parameters()]
        _, cache = step(solution, model, seq[:, :5])
        logits, _ = step(solution, model, seq[:, 5:], cache)
        if logits.grad_fn is None:
            raise Wrong("the decode step's logits have no grad_fn: autograd cannot reach the weights")
        weights = torch.randn(logits.shape, generator=torch.Generator().manual_seed(seed),
                              dtype=logits.dtype)
        mine = torch.autograd.grad((logits * weights).sum(), params, allow_unused=True)
        theirs = torch.autograd.grad((model(seq)[:, 5:] * weights).sum(), params, allow_unused=True)
        for (name, _), a, b in zip(model.named_parameters(), mine, theirs, strict=True):
            if b is None:
                continue
            if a is None:
                raise Wrong(f"seed {seed}: no gradient reaches {name}")
            expect_tensor(a, b, f"seed {seed}: the gradient of {name}", **F64)
