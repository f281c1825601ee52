"""The judge of debug-small-gpt. The trusted model is the judge's own copy of the contract's GPT,
with the same parameter names, whose attention is torch's F.scaled_dot_product_attention with
is_causal=True, built from a seed and run in float64; the solution's GPT gets the same weights
with load_state_dict. The trusted loss is F.cross_entropy of the logits at positions 0..T-2
against tokens 1..T-1."""

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need
from torch import nn

TESTS = Tests("debug-small-gpt")
SEEDS = (0, 1, 2)
F64 = dict(atol=1e-9, rtol=1e-9)
SMALL = dict(vocab=40, d_model=24, n_heads=3, n_layers=1, max_len=16)


class TrustedAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        q, k, v = (z.unflatten(-1, (self.n_heads, -1)).transpose(1, 2)
                   for z in self.qkv(x).chunk(3, dim=-1))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).flatten(2))


class TrustedBlock(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d_model), TrustedAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TrustedGPT(nn.Module):
    def __init__(self, vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.tok_emb, self.pos_emb = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(TrustedBlock(d_model, n_heads) for _ in range(n_layers))
        self.ln_f, self.head = nn.LayerNorm(d_model), nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens):
        x = self.tok_emb(tokens) + self.pos_emb(torch.arange(tokens.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def trusted(seed, dtype=torch.float64, **config):
    """The judge's model, its weights fixed by `seed` (LayerNorms and biases randomised too, so
    that a LayerNorm applied twice or skipped shows)."""
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = TrustedGPT(**config)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name.startswith(("ln", "blocks")) and ("ln" in name or name.endswith("bias")):
                    p.copy_((1.0 if name.endswith("weight") else 0.0) + 0.2 * torch.randn_like(p))
    return model.to(dtype)


def theirs(solution, model, dtype=torch.float64, **config):
    """The solution's GPT with the judge's weights (from `model`), in `dtype`."""
    gpt = need(solution, "GPT")(**config)
    mine, want = gpt.state_dict(), model.state_dict()
    if set(mine) != set(want):
        missing, extra = sorted(set(want) - set(mine)), sorted(set(mine) - set(want))
        raise Wrong(f"GPT({', '.join(f'{k}={v}' for k, v in config.items())})'s state_dict has other names"
                    f" than the contract's: missing {missing[:4]}, unexpected {extra[:4]}")
    for name, value in want.items():
        if tuple(mine[name].shape) != tuple(value.shape):
            raise Wrong(f"{name}: expected shape {tuple(value.shape)}, got {tuple(mine[name].shape)}")
    gpt.load_state_dict(want)
    return gpt.to(dtype)


def tokens(b, t, seed, vocab=64):
    return torch.randint(0, vocab, (b, t), generator=torch.Generator().manual_seed(100 + seed))


def trusted_loss(logits, toks):
    return F.cross_entropy(logits[:, :-1].flatten(0, 1), toks[:, 1:].flatten())


def logits_of(gpt, toks):
    with torch.no_grad():
        out = gpt(toks)
    if not isinstance(out, torch.Tensor):
        raise Wrong(f"GPT.forward should return the logits tensor, got {type(out).__name__}")
    if bool(torch.isnan(out).any()):
        where = tuple(int(i) for i in torch.isnan(out).nonzero()[0])
        raise Wrong(f"B = {toks.shape[0]}, T = {toks.shape[1]}: the logits hold NaN (first at index"
                    f" {where}): a row of attention scores that is all -inf has a NaN softmax")
    return out


@TESTS.test("GPT() and GPT(vocab=40, d_model=24, n_heads=3, n_layers=1, max_len=16) have the"
            " contract's parameter names and shapes, and load the judge's weights",
            hint="keep the starter's names: tok_emb, pos_emb, blocks.<i>.ln1, .attn.qkv, .attn.proj,"
                 " .ln2, .mlp.0, .mlp.2, ln_f, head; the bugs are in what the code computes")
def test_state_dict(solution):
    theirs(solution, trusted(0))
    theirs(solution, trusted(0, **SMALL), **SMALL)


@TESTS.test("changing the token at position p (p = 1, 4, 8 of 12) changes no logit before p,"
            " 3 seeds",
            hint="query i may attend to keys 0..i only: the hidden keys are those with j > i, the"
                 " triangle above the diagonal (triu(diagonal=1)), and they must get a weight of"
                 " exactly 0 (a score of -inf before the softmax, not 0 after the mask)")
def test_causal(solution):
    for seed in SEEDS:
        gpt = theirs(solution, trusted(seed))
        base = tokens(2, 12, seed)
        before = logits_of(gpt, base)
        for p in (1, 4, 8):
            changed = base.clone()
            changed[:, p] = (changed[:, p] + 1 + seed) % 64
            after = logits_of(gpt, changed)
            moved = (after[:, :p] - before[:, :p]).abs().amax().item()
            if not moved <= 1e-12:
                first = int((after[:, :p] - before[:, :p]).abs().amax(dim=(0, 2)).gt(1e-12).nonzero()[0])
                raise Wrong(f"seed {seed}: changing the token at position {p} changed the logits at"
                            f" position {first} (by up to {moved:.3g}): an earlier position sees a"
                            f" later token")


@TESTS.test("the logits equal the judge's float64 model with the same weights, 3 seeds, B = 2, T = 9",
            hint="compare each line with the contract: the softmax normalises over the keys (the"
                 " last dim of the (B, H, T, T) scores), and each block adds to the residual stream"
                 " x itself: x = x + attn(ln1(x)), not x = ln1(x) first")
def test_logits(solution):
    for seed in SEEDS:
        model = trusted(seed)
        toks = tokens(2, 9, seed)
        expect_tensor(logits_of(theirs(solution, model), toks), logits_of(model, toks),
                      f"seed {seed}: the logits", **F64)


@TESTS.test("the logits of a single token (B = 1, T = 1) and of a full context (B = 3, T = max_len"
            " = 32)",
            hint="with T = 1 the only key is the query itself: a mask that also hides the diagonal"
                 " leaves a row of -inf, and its softmax is NaN")
def test_lengths(solution):
    for b, t in ((1, 1), (3, 32)):
        model = trusted(3)
        toks = tokens(b, t, 3)
        expect_tensor(logits_of(theirs(solution, model), toks), logits_of(model, toks),
                      f"B = {b}, T = {t}: the logits", **F64)


@TESTS.test("another size, GPT(vocab=40, d_model=24, n_heads=3, n_layers=1, max_len=16): the logits,"
            " B = 2, T = 16",
            hint="take every size from the constructor's arguments and from x.shape (head_dim ="
                 " d_model // n_heads), none hard-coded")
def test_other_size(solution):
    model = trusted(4, **SMALL)
    toks = tokens(2, 16, 4, vocab=40)
    expect_tensor(logits_of(theirs(solution, model, **SMALL), toks), logits_of(model, toks),
                  "the logits", **F64)


@TESTS.test("a float32 model (the default dtype) gives float32 logits within 1e-5 of the float64 ones",
            hint="build nothing in a fixed dtype: the mask and the scores should follow x")
def test_float32(solution):
    model = trusted(5)
    toks = tokens(2, 9, 5)
    got = logits_of(theirs(solution, model, dtype=torch.float32), toks)
    expect_tensor(got, logits_of(model, toks).float(), "float32 logits", atol=1e-5, rtol=1e-4)


@TESTS.test("next_token_loss(model, tokens), on the judge's own model: the mean cross entropy of the"
            " logits at t against token t + 1, 3 seeds, T = 2 and T = 9",
            hint="position t predicts the token after it: the logits of positions 0..T-2 against"
                 " tokens[:, 1:]. Against tokens itself, each position only has to copy its own"
                 " input, and the loss falls fast for the wrong reason")
def test_next_token_loss(solution):
    loss_fn = need(solution, "next_token_loss")
    for seed in SEEDS:
        model = trusted(seed)
        for t in (2, 9):
            toks = tokens(3, t, seed)
            got = loss_fn(model, toks)
            if not isinstance(got, torch.Tensor) or got.dim() != 0:
                raise Wrong("next_token_loss should return a scalar tensor, got "
                            + (f"shape {tuple(got.shape)}" if isinstance(got, torch.Tensor)
                               else type(got).__name__))
            with torch.no_grad():
                want = trusted_loss(model(toks), toks)
            expect_tensor(got.detach(), want, f"seed {seed}, T = {t}: the loss", **F64)


@TESTS.test("the trusted loss through the solution's GPT gives the judge's gradient for"
            " every parameter (float64)",
            hint="nothing on the path from the parameters to the logits may be detached")
def test_gradients(solution):
    model = trusted(6)
    gpt = theirs(solution, model)
    toks = tokens(2, 9, 6)
    trusted_loss(model(toks), toks).backward()
    trusted_loss(gpt(toks), toks).backward()
    mine = dict(gpt.named_parameters())
    for name, p in model.named_parameters():
        if mine[name].grad is None:
            raise Wrong(f"{name} gets no gradient")
        expect_tensor(mine[name].grad, p.grad, f"the gradient of {name}", **F64)


STEPS, LR, THRESHOLD = 30, 1e-2, 0.5


@TESTS.test(f"{STEPS} AdamW steps (lr {LR}) of next_token_loss on one fixed batch (4 rows"
            f" of 8 random tokens repeated 4 times) bring the trusted loss below {THRESHOLD}",
            hint="overfit one small batch first: a correct model drives this loss far below the"
                 " threshold. If it does not, the loss or the gradient path is wrong, whatever the"
                 " number printed", timeout_s=60.0)
def test_training(solution):
    gen = torch.Generator().manual_seed(7)
    batch = torch.randint(0, 64, (4, 8), generator=gen).repeat(1, 4)  # (4, 32)
    gpt = theirs(solution, trusted(7), dtype=torch.float32)
    optimizer = torch.optim.AdamW(gpt.parameters(), lr=LR)
    loss_fn = need(solution, "next_token_loss")
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss_fn(gpt, batch).backward()
        optimizer.step()
    with torch.no_grad():
        final = trusted_loss(gpt(batch), batch).item()
    if not final < THRESHOLD:
        raise Wrong(f"after {STEPS} steps the next-token loss on the batch is {final:.2f}, not below"
                    f" {THRESHOLD}")
