"""The judge of rms-norm: values against F.rms_norm (on CPU a composite of pow, mean, add eps,
rsqrt and mul, which computes float16 and bfloat16 in float32), gradients of x and weight against
its backward, on several seeds and shapes, with eps placed inside the square root."""

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("rms-norm")
SEEDS = (0, 1, 2)
SHAPES = ((4, 16), (2, 5, 32), (3, 2, 4, 8))


def inputs(shape, seed, dtype=torch.float32, scale=1.0, offset=0.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g, dtype=torch.float64) * scale + offset
    weight = torch.randn(shape[-1], generator=g, dtype=torch.float64)
    return x.to(dtype), weight.to(dtype)


def compare(solution, x, weight, what, eps=1e-6, atol=1e-5, rtol=1e-5, pass_eps=True):
    fn = need(solution, "rms_norm")
    got = fn(x, weight, eps) if pass_eps else fn(x, weight)
    expected = F.rms_norm(x, (x.shape[-1],), weight, eps)
    expect_tensor(got, expected, what, atol=atol, rtol=rtol)


@TESTS.test("returns x's shape and dtype for (D,), (B, D), (B, T, D) and 4-d x, float32 and float64",
            hint="reduce over the last dimension with keepdim=True, so the (..., 1) root broadcasts"
                 " back over (..., D)")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        for shape in ((16,), (4, 16), (2, 3, 16), (2, 2, 3, 8)):
            x, weight = inputs(shape, 0, dtype)
            got = need(solution, "rms_norm")(x, weight)
            if not isinstance(got, torch.Tensor) or tuple(got.shape) != shape or got.dtype != dtype:
                raise Wrong(f"for x {shape} in {dtype}: expected a {shape} {dtype} tensor, got "
                            + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                               else type(got).__name__))


@TESTS.test("equals F.rms_norm with a weight (3 seeds, 3 shapes, float32)",
            hint="divide x itself (no mean subtracted) by the root of the MEAN of its squares over"
                 " the last dimension, then multiply by weight")
def test_matches_rms_norm(solution):
    for seed in SEEDS:
        for shape in SHAPES:
            compare(solution, *inputs(shape, seed), f"seed {seed}, x {shape}")


@TESTS.test("weight=None: no scale, equals F.rms_norm without a weight",
            hint="weight is optional: multiply by it only when it is not None")
def test_no_weight(solution):
    for seed, shape in zip(SEEDS, SHAPES, strict=True):
        x, _ = inputs(shape, seed)
        compare(solution, x, None, f"seed {seed}, x {shape}, weight None")


@TESTS.test("eps goes inside the square root: tiny inputs (about 1e-4) with eps = 1e-6",
            hint="the denominator is sqrt(mean(x ** 2) + eps), not sqrt(mean(x ** 2)) + eps;"
                 " they differ when the mean square is near eps")
def test_eps_inside_sqrt(solution):
    for seed in SEEDS:
        compare(solution, *inputs((4, 16), seed, scale=1e-4), f"seed {seed}, x of scale 1e-4",
                atol=1e-4, rtol=1e-4)


@TESTS.test("eps is the argument: eps = 0.1 and eps = 1.0 on unit inputs",
            hint="use the eps you are given; 1e-6 is only its default")
def test_eps_argument(solution):
    for eps in (0.1, 1.0):
        compare(solution, *inputs((4, 16), 0), f"eps = {eps}", eps=eps)


@TESTS.test("no mean is subtracted: rows near 3 (3 + 0.5 * randn) normalise to about 1",
            hint="RMSNorm is not LayerNorm: divide x itself by its root mean square; do not"
                 " subtract the mean or use the variance")
def test_no_centering(solution):
    compare(solution, *inputs((4, 16), 0, scale=0.5, offset=3.0), "rows of mean about 3")


@TESTS.test("a row of zeros gives zeros (not NaN), and its gradient equals F.rms_norm's",
            hint="x.norm() or sqrt(mean) alone is 0 for a zero row: keep eps inside the root and"
                 " divide by that")
def test_zero_row(solution):
    x, weight = inputs((3, 8), 0)
    x[1] = 0.0
    compare(solution, x, weight, "x[1] all zeros")
    mine_x = x.clone().requires_grad_()
    got = need(solution, "rms_norm")(mine_x, weight, 1e-6)
    if not isinstance(got, torch.Tensor) or got.grad_fn is None:
        raise Wrong("the output has no grad_fn: autograd cannot reach x")
    (grad,) = torch.autograd.grad(got.sum(), mine_x)
    ref_x = x.clone().requires_grad_()
    (expected,) = torch.autograd.grad(F.rms_norm(ref_x, (8,), weight, 1e-6).sum(), ref_x)
    expect_tensor(grad[1], expected[1], "the gradient of x on the zero row x[1]", atol=1e-4,
                  rtol=1e-5)


@TESTS.test("float64 is computed in float64: equals F.rms_norm to 1e-12",
            hint="compute in x's own dtype when it is float32 or float64; .float() turns float64"
                 " into float32")
def test_float64(solution):
    for seed, shape in zip(SEEDS, SHAPES, strict=True):
        compare(solution, *inputs(shape, seed, torch.float64), f"seed {seed}, x {shape}, float64",
                atol=1e-12, rtol=1e-10)


@TESTS.test("edge cases: D = 1, batch 1, 1-d x, and values near 1e4",
            hint="nothing special-cased: the same mean over the last dimension works for every"
                 " shape and scale")
def test_edge_cases(solution):
    compare(solution, *inputs((5, 1), 0), "D = 1")
    compare(solution, *inputs((1, 16), 1), "batch 1, x (1, 16)")
    compare(solution, *inputs((16,), 2), "x of shape (16,)")
    compare(solution, *inputs((1, 1, 32), 0, scale=1e4), "x of scale 1e4")
    compare(solution, *inputs((4, 16), 0), "eps left at its default", pass_eps=False)


@TESTS.test("float16 and bfloat16 return their dtype and equal F.rms_norm, which computes in"
            " float32 (float16 values near 300, whose squares overflow float16)",
            hint="cast x to float32, normalise, multiply by weight, then cast the result back to"
                 " x's dtype")
def test_low_precision(solution):
    x, weight = inputs((4, 16), 0, torch.float16, scale=300.0)
    compare(solution, x, weight, "float16, x of scale 300", atol=1e-2, rtol=1e-2)
    x, weight = inputs((4, 16), 1, torch.bfloat16)
    compare(solution, x, weight, "bfloat16", atol=2e-2, rtol=2e-2)


@TESTS.test("gradients reach x and weight and equal F.rms_norm's (float64, with and without"
            " a weight)",
            hint="build the result from differentiable torch ops; the root mean square depends"
                 " on x, so do not detach it or take .item()")
def test_gradients(solution):
    for use_weight in (True, False):
        x, weight = inputs((3, 5, 16), 2, torch.float64)
        leaves = [x.requires_grad_()] + ([weight.requires_grad_()] if use_weight else [])
        got = need(solution, "rms_norm")(x, weight if use_weight else None, 1e-6)
        if not isinstance(got, torch.Tensor) or got.grad_fn is None:
            raise Wrong("the output has no grad_fn: autograd cannot reach x and weight")
        upstream = torch.randn(got.shape, generator=torch.Generator().manual_seed(5),
                               dtype=got.dtype)
        mine = torch.autograd.grad((got * upstream).sum(), leaves, allow_unused=True)
        refs = [t.detach().clone().requires_grad_() for t in leaves]
        out = F.rms_norm(refs[0], (16,), refs[1] if use_weight else None, 1e-6)
        theirs = torch.autograd.grad((out * upstream).sum(), refs)
        for name, a, b in zip(("x", "weight"), mine, theirs, strict=False):
            if a is None:
                raise Wrong(f"no gradient reaches {name}")
            expect_tensor(a, b, f"the gradient of {name} (weight {'given' if use_weight else 'None'})",
                          atol=1e-10, rtol=1e-8)
