"""The judge of rope. torch has no RoPE function, so the judge's trusted reference is built here,
independently of the usual cos/sin code: each half-split pair (x[i], x[i + D/2]) is read as the
complex number x[i] + 1j * x[i + D/2] (torch.view_as_complex) and multiplied by the unit complex
number of its angle (torch.polar), all in float64, then cast to x's dtype. Around it: properties
that any rotary embedding must have (position 0 is the identity, each pair keeps its length, the
score of q and k depends only on their distance), and the contract's edge cases."""

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("rope")
SEEDS = (0, 1, 2)
F32 = dict(atol=3e-5, rtol=1e-5)  # float32 angles of positions under a few hundred


def randn(shape, seed, dtype=torch.float32, scale=1.0):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=dtype) * scale


def trusted(x, positions, base=10000.0):
    """RoPE as complex multiplication, in float64: (a + ib) * e^(i * angle)."""
    d = x.shape[-1]
    h = d // 2
    inv_freq = base ** (-2 * torch.arange(h, dtype=torch.float64) / d)
    angles = positions.to(torch.float64)[:, None] * inv_freq  # (L, h)
    turn = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(torch.stack([x[..., :h].double(), x[..., h:].double()], dim=-1))
    out = torch.view_as_real(pairs * turn)  # (..., h, 2): real and imaginary parts
    return torch.cat([out[..., 0], out[..., 1]], dim=-1).to(x.dtype)


def rope(solution, x, positions, base=None):
    fn = need(solution, "apply_rope")
    return fn(x, positions) if base is None else fn(x, positions, base=base)


def compare(solution, x, positions, what, base=None, **tol):
    expected = trusted(x, positions, 10000.0 if base is None else base)  # before x is touched
    got = rope(solution, x, positions, base)
    expect_tensor(got, expected, what, **(tol or F32))


def pair_norms(t):
    h = t.shape[-1] // 2
    return torch.sqrt(t[..., :h].double() ** 2 + t[..., h:].double() ** 2)


@TESTS.test("returns (B, H, L, D) in x's dtype: float32 and float64, int64 and int32 positions",
            hint="the output is a new tensor of x's shape; compute cos and sin in a dtype that"
                 " does not turn a float32 x into float64")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        for pdtype in (torch.int64, torch.int32):
            x = randn((2, 3, 5, 8), 0, dtype)
            got = rope(solution, x, torch.arange(5, dtype=pdtype))
            if not isinstance(got, torch.Tensor) or tuple(got.shape) != (2, 3, 5, 8) \
                    or got.dtype != dtype:
                raise Wrong(f"for x (2, 3, 5, 8) in {dtype} and {pdtype} positions: expected a"
                            f" (2, 3, 5, 8) {dtype} tensor, got "
                            + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                               else type(got).__name__))


@TESTS.test("equals the complex-number reference (3 seeds, D = 8, 16 and 64; base 10,000 and"
            " 500,000)",
            hint="pair dimension i with i + D/2 and turn the pair by position * base ** (-2i / D),"
                 " i = 0..D/2-1: (a, b) becomes (a cos - b sin, b cos + a sin)")
def test_matches_complex(solution):
    for seed in SEEDS:
        for b, h, length, d in ((2, 3, 7, 8), (1, 4, 9, 16), (2, 2, 12, 64)):
            x = randn((b, h, length, d), seed)
            compare(solution, x, torch.arange(length), f"seed {seed}, x {tuple(x.shape)}")
    x = randn((2, 2, 12, 64), 3)
    compare(solution, x, torch.arange(12), "base=500000.0", base=500000.0)


@TESTS.test("uses the positions given: a decode step at 17, positions 17..21, and 3, 0, 9, 40",
            hint="turn each token by its entry of `positions`, not by 0..L-1: the one token of a"
                 " decode step at position 17 is turned by 17 * frequency")
def test_decode_step(solution):
    compare(solution, randn((2, 4, 1, 16), 0), torch.tensor([17]), "one token at position 17")
    compare(solution, randn((2, 4, 5, 16), 1), torch.arange(17, 22), "positions 17..21")
    compare(solution, randn((1, 2, 4, 16), 2), torch.tensor([3, 0, 9, 40]),
            "positions 3, 0, 9, 40")


@TESTS.test("position 0 is the identity: every token at position 0 comes back as it was",
            hint="at angle 0, cos is 1 and sin is 0: nothing may be added or scaled")
def test_position_zero(solution):
    x = randn((2, 3, 6, 16), 4)
    expect_tensor(rope(solution, x, torch.zeros(6, dtype=torch.int64)), x,
                  "six tokens all at position 0", atol=1e-7, rtol=1e-7)


@TESTS.test("each pair (x[i], x[i + D/2]) keeps its length, at positions up to 5,000",
            hint="both dimensions of a pair turn by the same angle: cos and sin of pair i are"
                 " used for dimension i and for dimension i + D/2")
def test_keeps_pair_norms(solution):
    for seed in SEEDS:
        x = randn((2, 3, 8, 32), seed)
        positions = torch.tensor([0, 1, 5, 17, 100, 999, 2048, 5000])
        got = rope(solution, x, positions)
        if not isinstance(got, torch.Tensor) or got.shape != x.shape:
            raise Wrong(f"expected a tensor of shape {tuple(x.shape)}, got "
                        + (f"{tuple(got.shape)}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))
        expect_tensor(pair_norms(got), pair_norms(x), f"seed {seed}: the length of each pair",
                      atol=1e-5, rtol=1e-5)


@TESTS.test("q . k after RoPE depends only on the distance: positions (m, m - 2) give the same"
            " score for m = 2, 3, 10, 50, 101",
            hint="a rotation by m followed by the inverse of a rotation by n is a rotation by"
                 " m - n: this holds only if q and k turn with the same frequencies")
def test_relative_position(solution):
    for seed in SEEDS:
        q = randn((2, 3, 1, 32), seed).expand(2, 3, 5, 32).clone()  # one q, five positions
        k = randn((2, 3, 1, 32), seed + 10).expand(2, 3, 5, 32).clone()
        m = torch.tensor([2, 3, 10, 50, 101])
        rq, rk = rope(solution, q, m), rope(solution, k, m - 2)
        for name, t in (("q", rq), ("k", rk)):
            if not isinstance(t, torch.Tensor) or t.shape != q.shape:
                raise Wrong(f"rotated {name}: expected shape {tuple(q.shape)}, got "
                            + (f"{tuple(t.shape)}" if isinstance(t, torch.Tensor)
                               else type(t).__name__))
        scores = (rq.double() * rk.double()).sum(-1)  # (2, 3, 5): one score per m
        expect_tensor(scores, scores[..., :1].expand_as(scores),
                      f"seed {seed}: the scores at m = 2, 3, 10, 50, 101 against the one at m = 2",
                      atol=1e-4, rtol=1e-5)


@TESTS.test("float64 is exact to 1e-9, at positions up to 100,000",
            hint="compute the frequencies and angles in x's dtype (float64 here), not in float32:"
                 " cos and sin are only as exact as the angle they are taken of")
def test_float64(solution):
    x = randn((2, 2, 7, 64), 5, torch.float64)
    positions = torch.tensor([0, 1, 17, 100, 4095, 65535, 100000])
    compare(solution, x, positions, "float64", atol=1e-9, rtol=1e-9)


@TESTS.test("length 1, batch 1, one head, D = 2 and D = 4",
            hint="with D = 2 there is one pair, turned by the angle position * 1")
def test_length_one(solution):
    for d in (2, 4):
        for p in (0, 7):
            compare(solution, randn((1, 1, 1, d), d + p), torch.tensor([p]),
                    f"B = H = L = 1, D = {d}, position {p}")


@TESTS.test("x in the tens of thousands stays finite and exact to float32",
            hint="the rotation is linear in x: x1 * cos - x2 * sin and x2 * cos + x1 * sin, with"
                 " nothing that squares or exponentiates x")
def test_large_values(solution):
    x = randn((1, 2, 32, 64), 6, scale=1e4)
    compare(solution, x, torch.arange(32), "x times 10,000", atol=0.3, rtol=1e-5)


@TESTS.test("x is left unchanged (the result is a new tensor)",
            hint="build the output with torch.cat or a new tensor; do not assign into x or its"
                 " halves (x[..., :h] is a view of x)")
def test_input_unchanged(solution):
    x = randn((2, 3, 4, 16), 7)
    before = x.clone()
    got = rope(solution, x, torch.arange(3, 7))
    expect_tensor(x, before, "x after the call (it must not be modified)", atol=0, rtol=0)
    if got is x:
        raise Wrong("the result is x itself: expected a new tensor")


@TESTS.test("gradients reach x and equal the complex reference's (float64)",
            hint="build the result from differentiable torch ops on x; no .item(), .numpy(),"
                 " .detach() or in-place writes into x")
def test_gradients(solution):
    for seed in (0, 1):
        x = randn((2, 3, 5, 16), seed, torch.float64).requires_grad_()
        positions = torch.arange(3, 8)
        got = rope(solution, x, positions)
        if not isinstance(got, torch.Tensor) or got.grad_fn is None:
            raise Wrong("the output has no grad_fn: autograd cannot reach x")
        weights = randn(got.shape, seed + 20, got.dtype)
        (mine,) = torch.autograd.grad((got * weights).sum(), [x])
        ref = x.detach().clone().requires_grad_()
        (theirs,) = torch.autograd.grad((trusted(ref, positions) * weights).sum(), [ref])
        expect_tensor(mine, theirs, f"seed {seed}: the gradient of x", atol=1e-10, rtol=1e-9)
