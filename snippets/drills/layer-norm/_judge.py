"""The judge of layer-norm: values against F.layer_norm, gradients of x, weight and bias against
its backward, on several seeds and shapes, with normalized_shape of one, two and three trailing
dimensions. Where float32 rounding matters (values near 1e3 and 1e4), the trusted value is
F.layer_norm in float64 on the same values, and the tolerance is set from F.layer_norm's own
float32 error there (at most 8.9e-5 and 1.5e-3 on these rows, recorded in follow_ups), so a
careful float32 solution passes and E[x^2] - E[x]^2 in float32, off by 0.35 at 1e3 and NaN at
1e4, fails. float16 and bfloat16 are held to F.layer_norm's own output, which equals
F.layer_norm on the float32 values cast back (follow_ups), to a few of their rounding steps."""

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("layer-norm")
SEEDS = (0, 1, 2)
F32 = dict(atol=1e-4, rtol=1e-4)  # float32 against F.layer_norm: rounding is about 1e-6 here; eps
# placed outside the root is off by about 1e-5 and is the eps test's to catch
# (x shape, normalized_shape)
ONE_DIM = (((4, 16), (16,)), ((2, 5, 32), (32,)), ((3, 2, 4, 8), (8,)))
TWO_DIMS = (((2, 3, 4, 8), (4, 8)), ((5, 6, 7), (6, 7)), ((2, 3, 4, 5), (3, 4, 5)))


def inputs(shape, ns, seed, dtype=torch.float32, scale=1.0, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g, dtype=torch.float64) * scale + shift
    weight = torch.randn(ns, generator=g, dtype=torch.float64)
    bias = torch.randn(ns, generator=g, dtype=torch.float64)
    return x.to(dtype), weight.to(dtype), bias.to(dtype)


def call(solution, x, ns, weight, bias, eps=1e-5, what="the output"):
    got = need(solution, "layer_norm")(x, ns, weight, bias, eps)
    if not isinstance(got, torch.Tensor):
        raise Wrong(f"{what}: expected a tensor, got {type(got).__name__}")
    return got


def compare(solution, x, ns, weight, bias, what, eps=1e-5, atol=1e-5, rtol=1e-5, in_float64=False):
    got = call(solution, x, ns, weight, bias, eps, what)
    if in_float64:  # the trusted value: F.layer_norm in float64 on the same values
        expected = F.layer_norm(x.double(), ns, None if weight is None else weight.double(),
                                None if bias is None else bias.double(), eps).to(x.dtype)
    else:
        expected = F.layer_norm(x, ns, weight, bias, eps)
    expect_tensor(got.detach(), expected, what, atol=atol, rtol=rtol)


@TESTS.test("returns x's shape and dtype for 1-d to 4-d x, normalized_shape of 1 and 2 dims,"
            " float32 and float64",
            hint="reduce over the trailing len(normalized_shape) dimensions with keepdim=True, so"
                 " the mean and variance broadcast back over them; return x's dtype (float64 stays"
                 " float64)")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        for shape, ns in (((16,), (16,)), ((4, 16), (16,)), ((2, 3, 16), (16,)),
                          ((2, 3, 4, 8), (4, 8))):
            x, weight, bias = inputs(shape, ns, 0, dtype)
            got = call(solution, x, ns, weight, bias)
            if tuple(got.shape) != shape or got.dtype != dtype:
                raise Wrong(f"for x {shape} in {dtype}, normalized_shape {ns}: expected a {shape}"
                            f" {dtype} tensor, got {tuple(got.shape)} {got.dtype}")


@TESTS.test("equals F.layer_norm over the last dimension, with a weight (3 seeds, 3 shapes,"
            " float32, bias None)",
            hint="subtract the mean of each row, divide by sqrt(biased variance + eps): the"
                 " variance divides by n (correction=0), not n - 1 as torch.var does by default")
def test_matches_layer_norm(solution):
    for seed in SEEDS:
        for shape, ns in ONE_DIM:
            x, weight, _ = inputs(shape, ns, seed, scale=2.0, shift=0.5)
            compare(solution, x, ns, weight, None, f"seed {seed}, x {shape}, normalized_shape {ns}",
                    **F32)


@TESTS.test("bias is added after the scale, and either may be None: weight and bias, bias only,"
            " neither (float32)",
            hint="y = x_hat * weight + bias: multiply only when weight is not None, add only when"
                 " bias is not None")
def test_weight_and_bias(solution):
    for seed, (shape, ns) in zip(SEEDS, ONE_DIM, strict=True):
        x, weight, bias = inputs(shape, ns, seed)
        for w, b, which in ((weight, bias, "weight and bias"), (None, bias, "bias only"),
                            (None, None, "neither")):
            compare(solution, x, ns, w, b, f"seed {seed}, x {shape}, {which}", **F32)


@TESTS.test("normalized_shape of 2 and 3 dims: each (4, 8), (6, 7) or (3, 4, 5) slice is"
            " normalised as one group, with weight and bias of that shape (3 seeds)",
            hint="take the mean and variance over ALL the trailing len(normalized_shape)"
                 " dimensions together (dim=(-2, -1) for two), not over the last one only")
def test_two_dims(solution):
    for seed in SEEDS:
        for shape, ns in TWO_DIMS:
            x, weight, bias = inputs(shape, ns, seed, scale=1.5)
            x = x + torch.arange(ns[-1], dtype=x.dtype)  # columns of different means
            compare(solution, x, ns, weight, bias, f"seed {seed}, x {shape}, normalized_shape {ns}",
                    **F32)


@TESTS.test("eps goes inside the square root and is the argument: rows of spread 1e-3 (variance"
            " 1e-6, below eps = 1e-5), and eps = 0.1 and 1.0 on unit rows",
            hint="the denominator is sqrt(var + eps), not sqrt(var) + eps; and use the eps you are"
                 " given, 1e-5 is only its default")
def test_eps(solution):
    for seed in SEEDS:
        x, weight, bias = inputs((4, 16), (16,), seed, scale=1e-3)
        compare(solution, x, (16,), weight, bias, f"seed {seed}, rows of spread 1e-3")
    for eps in (0.1, 1.0):
        x, weight, bias = inputs((4, 16), (16,), 0)
        compare(solution, x, (16,), weight, bias, f"eps = {eps}", eps=eps)


@TESTS.test("gradients of x, weight and bias equal F.layer_norm's (float64; normalized_shape of"
            " 1 and 2 dims; with and without weight and bias)",
            hint="build the result from differentiable torch ops: the mean and the variance depend"
                 " on x, so do not detach them or take .item()")
def test_gradients(solution):
    for (shape, ns), affine in ((ONE_DIM[1], True), (TWO_DIMS[0], True), (ONE_DIM[0], False)):
        x, weight, bias = inputs(shape, ns, 2, torch.float64, scale=2.0, shift=-1.0)
        leaves = [x.requires_grad_()] + ([weight.requires_grad_(), bias.requires_grad_()]
                                         if affine else [])
        w, b = (weight, bias) if affine else (None, None)
        what = f"x {shape}, normalized_shape {ns}, {'with' if affine else 'without'} weight and bias"
        got = call(solution, x, ns, w, b, what=what)
        if got.grad_fn is None:
            raise Wrong(f"{what}: the output has no grad_fn: autograd cannot reach x")
        up = inputs(shape, ns, 7, torch.float64)[0]
        mine = torch.autograd.grad((got * up).sum(), leaves, allow_unused=True)
        refs = [t.detach().clone().requires_grad_() for t in leaves]
        out = F.layer_norm(refs[0], ns, *(refs[1:] if affine else (None, None)))
        theirs = torch.autograd.grad((out * up).sum(), refs)
        for name, a, e in zip(("x", "weight", "bias"), mine, theirs, strict=False):
            if a is None:
                raise Wrong(f"{what}: no gradient reaches {name}")
            expect_tensor(a, e, f"{what}: the gradient of {name}", atol=1e-10, rtol=1e-8)


@TESTS.test("a constant group (variance 0) gives bias, not NaN, and its gradients equal"
            " F.layer_norm's (float64; rows and a (4, 8) slice of 7.0)",
            hint="with eps inside the square root, x - mean is 0 and so is x_hat; a division by"
                 " sqrt(var) alone, or x.std(), is 0 / 0 there")
def test_constant_groups(solution):
    for shape, ns in (((3, 8), (8,)), ((2, 4, 8), (4, 8))):
        x, weight, bias = inputs(shape, ns, 1, torch.float64)
        x[1] = 7.0
        what = f"x {shape}, normalized_shape {ns}, x[1] all 7.0"
        compare(solution, x, ns, weight, bias, what, atol=1e-9, rtol=1e-9)
        leaves = [t.clone().requires_grad_() for t in (x, weight, bias)]
        got = call(solution, leaves[0], ns, leaves[1], leaves[2], what=what)
        if got.grad_fn is None:
            raise Wrong(f"{what}: the output has no grad_fn")
        up = inputs(shape, ns, 5, torch.float64)[0]
        mine = torch.autograd.grad((got * up).sum(), leaves, allow_unused=True)
        refs = [t.clone().requires_grad_() for t in (x, weight, bias)]
        theirs = torch.autograd.grad((F.layer_norm(refs[0], ns, refs[1], refs[2]) * up).sum(), refs)
        for name, a, b in zip(("x", "weight", "bias"), mine, theirs, strict=True):
            if a is None:
                raise Wrong(f"{what}: no gradient reaches {name}")
            expect_tensor(a, b, f"{what}: the gradient of {name}", atol=1e-8, rtol=1e-8)


@TESTS.test("values far from zero in float32: mean 1e3 and 1e4 with a spread of 1, against"
            " F.layer_norm in float64 (to 1e-3 and 2e-2; F.layer_norm's own float32 error on the"
            " same rows, without weight and bias, is at most 8.9e-5 and 1.5e-3)",
            hint="take the variance as the mean of (x - mean) ** 2, or torch.var_mean with"
                 " correction=0: mean(x ** 2) - mean ** 2 cancels in float32 when the mean is large"
                 " against the spread, and can even come out negative")
def test_large_offset(solution):
    for seed in SEEDS:
        for shift, atol in ((1e3, 1e-3), (1e4, 2e-2)):
            for shape in ((8, 16), (4, 768)):
                x, weight, bias = inputs(shape, shape[-1:], seed, shift=shift)
                compare(solution, x, shape[-1:], weight, bias,
                        f"seed {seed}, x {shape} of mean {shift:g}", atol=atol, rtol=atol,
                        in_float64=True)


@TESTS.test("float64 is computed in float64: equals F.layer_norm to 1e-12, normalized_shape of"
            " 1 and 2 dims",
            hint="compute in x's own dtype when it is float32 or float64; .float() turns float64"
                 " into float32")
def test_float64(solution):
    for seed, (shape, ns) in enumerate(ONE_DIM[:2] + TWO_DIMS[:1]):
        x, weight, bias = inputs(shape, ns, seed, torch.float64, scale=3.0, shift=1.0)
        compare(solution, x, ns, weight, bias, f"seed {seed}, x {shape}, float64", atol=1e-12,
                rtol=1e-10)


@TESTS.test("float16 and bfloat16 return their dtype and equal F.layer_norm's output (to 2e-3"
            " and 1.6e-2, absolute plus relative) on values near 100 with a spread of 2, and with"
            " normalized_shape (4, 8)",
            hint="cast x (and weight and bias) to float32, normalise, then cast the result back to"
                 " x's dtype")
def test_low_precision(solution):
    for dtype, tol in ((torch.float16, 2e-3), (torch.bfloat16, 1.6e-2)):
        for seed in SEEDS:
            x, weight, bias = inputs((4, 16), (16,), seed, dtype, scale=2.0, shift=100.0)
            compare(solution, x, (16,), weight, bias, f"{dtype}, seed {seed}, values near 100",
                    atol=tol, rtol=tol)
        x, weight, bias = inputs((2, 3, 4, 8), (4, 8), 3, dtype)
        compare(solution, x, (4, 8), weight, bias, f"{dtype}, normalized_shape (4, 8)", atol=tol,
                rtol=tol)


@TESTS.test("edge cases: D = 1 (every output is the bias), batch 1, 1-d x, normalized_shape equal"
            " to x's whole shape, eps left at its default",
            hint="nothing special-cased: the same reduction over the trailing dimensions works for"
                 " every shape")
def test_edge_cases(solution):
    x, weight, bias = inputs((5, 1), (1,), 0)
    compare(solution, x, (1,), weight, bias, "D = 1")
    x, weight, bias = inputs((1, 16), (16,), 1)
    compare(solution, x, (16,), weight, bias, "batch 1, x (1, 16)")
    x, weight, bias = inputs((16,), (16,), 2)
    compare(solution, x, (16,), weight, bias, "x of shape (16,)")
    x, weight, bias = inputs((3, 5), (3, 5), 3)
    compare(solution, x, (3, 5), weight, bias, "normalized_shape (3, 5) = x.shape")
    x, weight, bias = inputs((4, 16), (16,), 4)
    got = need(solution, "layer_norm")(x, (16,), weight, bias)
    expect_tensor(got.detach() if isinstance(got, torch.Tensor) else got,
                  F.layer_norm(x, (16,), weight, bias), "eps left at its default (1e-5)")
