"""The judge of custom-autograd-function: MulSigmoid's values against the plain torch expression
x * torch.sigmoid(y * scale), its gradients against autograd of that expression in float64 (on
several seeds, scales and broadcast shapes of y), torch.autograd.gradcheck in float64, and what
the backward itself returns when the judge calls the node directly (out.grad_fn.apply, which
torch/autograd/function.py documents as the same call the engine makes): three values, y's
gradient already summed to y's shape, None for scale and for an input that needs no gradient.
Around that: inputs left unchanged, saved inputs modified in place before backward, saturated
sigmoids in float32."""

import torch
from _drill import Tests, Wrong, expect_tensor, need
from torch.autograd.gradcheck import GradcheckError

TESTS = Tests("custom-autograd-function")
SEEDS = (0, 1, 2)
SCALES = (1.0, 0.5, -3.0)
# (x's shape, y's shape): y broadcasts to x
SHAPES = (((5, 8), (8,)), ((2, 3, 4), (3, 1)), ((2, 3, 4), (1, 4)), ((2, 3, 4), (2, 1, 4)),
          ((2, 3, 4), (2, 3, 4)), ((4, 6), ()))
F64 = dict(atol=1e-10, rtol=1e-8)


def randn(shape, seed, dtype=torch.float64, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * scale).to(dtype)


def plain(x, y, scale):
    return x * torch.sigmoid(y * scale)


def call(solution, x, y, scale):
    out = need(solution, "mul_sigmoid")(x, y, scale)
    if not isinstance(out, torch.Tensor):
        raise Wrong(f"mul_sigmoid returned {type(out).__name__}, not a tensor")
    return out


def node(solution, out):
    """out's grad_fn, checked to be MulSigmoid's backward node."""
    cls = need(solution, "MulSigmoid")
    backward_cls = getattr(cls, "_backward_cls", None)
    if backward_cls is None or not isinstance(out.grad_fn, backward_cls):
        raise Wrong(f"the output's grad_fn is {type(out.grad_fn).__name__ if out.grad_fn else None},"
                    " not MulSigmoid's backward: mul_sigmoid must return MulSigmoid.apply(...)")
    return out.grad_fn


def expected_grads(x, y, scale, upstream, wrt):
    leaves = {"x": x.detach().double().requires_grad_(), "y": y.detach().double().requires_grad_()}
    out = plain(leaves["x"], leaves["y"], scale)
    return torch.autograd.grad((out * upstream.double()).sum(), [leaves[n] for n in wrt])


def check_grads(solution, x, y, scale, seed, what, wrt=("x", "y"), **tol):
    """Gradients through mul_sigmoid against autograd of the plain expression."""
    x, y = x.detach().clone(), y.detach().clone()
    leaves = {"x": x, "y": y}
    for name in wrt:
        leaves[name].requires_grad_()
    upstream = randn(x.shape, 100 + seed, x.dtype)
    expected = expected_grads(x, y, scale, upstream, wrt)
    out = call(solution, x, y, scale)
    if out.grad_fn is None:
        raise Wrong(f"{what}: the output has no grad_fn")
    got = torch.autograd.grad((out * upstream).sum(), [leaves[n] for n in wrt])
    for name, mine, theirs in zip(wrt, got, expected, strict=True):
        expect_tensor(mine, theirs.to(mine.dtype), f"{what}: the gradient of {name}",
                      **(tol or F64))


@TESTS.test("MulSigmoid is a torch.autograd.Function and mul_sigmoid's output comes from it"
            " (its grad_fn is MulSigmoid's backward node)",
            hint="subclass torch.autograd.Function with static forward(ctx, ...) and"
                 " backward(ctx, grad_out), and call it as MulSigmoid.apply(x, y, scale); never"
                 " MulSigmoid()(...) and never MulSigmoid.forward directly")
def test_is_a_function(solution):
    cls = need(solution, "MulSigmoid")
    if not (isinstance(cls, type) and issubclass(cls, torch.autograd.Function)):
        raise Wrong("MulSigmoid is not a subclass of torch.autograd.Function")
    x = randn((3, 4), 0).requires_grad_()
    node(solution, call(solution, x, randn((4,), 1), 2.0))


@TESTS.test("forward equals x * sigmoid(y * scale) with x's shape and dtype: 6 broadcast shapes"
            " of y, 3 seeds, 3 scales, float32 and float64",
            hint="compute s = torch.sigmoid(y * scale) and return x * s; broadcasting gives x's"
                 " shape")
def test_forward_values(solution):
    for dtype, tol in ((torch.float64, F64), (torch.float32, dict(atol=1e-6, rtol=1e-5))):
        for seed in SEEDS:
            for (xs, ys), scale in zip(SHAPES, SCALES * 2, strict=True):
                x, y = randn(xs, seed, dtype), randn(ys, seed + 10, dtype)
                expected = plain(x.double(), y.double(), scale).to(dtype)
                got = call(solution, x, y, scale)
                expect_tensor(got.detach(), expected,
                              f"{dtype}, seed {seed}, x {xs}, y {ys}, scale {scale}", **tol)


@TESTS.test("gradients of x and y equal autograd's of the plain expression (float64, 3 seeds,"
            " scales 1, 0.5 and -3, y of shapes (D,), (T, 1), (1, D), (B, 1, D), x's own and 0-dim)",
            hint="d out/dx = s and d out/dy = x * s * (1 - s) * scale, each times grad_out; the"
                 " chain rule through y * scale brings the factor scale; backward returns one"
                 " value per input of forward, scale's included")
def test_gradients(solution):
    for seed in SEEDS:
        for scale in SCALES:
            for xs, ys in SHAPES:
                check_grads(solution, randn(xs, seed), randn(ys, seed + 10), scale, seed,
                            f"seed {seed}, x {xs}, y {ys}, scale {scale}")


@TESTS.test("backward, called directly (out.grad_fn.apply(grad_out)), returns three values: x's"
            " gradient of x's shape, y's gradient summed to y's shape, and None for scale",
            hint="the gradient of y has x's shape before you reduce it: sum the leading"
                 " dimensions broadcasting added, then (keepdim=True) the dimensions where y has"
                 " size 1; the engine would quietly do this for you, but the contract asks"
                 " backward to return y's shape")
def test_backward_returns(solution):
    for seed, (xs, ys) in enumerate(SHAPES):
        x, y = randn(xs, seed).requires_grad_(), randn(ys, seed + 10).requires_grad_()
        upstream = randn(xs, 100 + seed)
        expected = expected_grads(x, y, 1.5, upstream, "xy")
        out = call(solution, x, y, 1.5)
        grads = node(solution, out).apply(upstream)
        if not isinstance(grads, (tuple, list)) or len(grads) != 3:
            raise Wrong(f"x {xs}, y {ys}: backward returned "
                        + (f"{len(grads)} values" if isinstance(grads, (tuple, list))
                           else type(grads).__name__) + ", expected 3 (x, y, scale)")
        if grads[2] is not None:
            raise Wrong(f"x {xs}, y {ys}: the third value (for scale, a float) is"
                        f" {type(grads[2]).__name__}, expected None")
        for name, got, theirs in zip("xy", grads[:2], expected, strict=True):
            if got is None:
                raise Wrong(f"x {xs}, y {ys}: backward returned None for {name}, which needs a"
                            " gradient")
            expect_tensor(got.detach() if isinstance(got, torch.Tensor) else got, theirs,
                          f"x {xs}, y {ys}: backward's gradient of {name}", **F64)


@TESTS.test("only one input requires grad: its gradient is right and backward returns None for"
            " the other (ctx.needs_input_grad)",
            hint="ctx.needs_input_grad is (x needs one, y needs one, False for scale), in"
                 " forward's order: compute grad_x only under [0] and grad_y only under [1]")
def test_one_input_requires_grad(solution):
    for seed, (xs, ys) in enumerate(SHAPES[:3]):
        for name, index in (("x", 0), ("y", 1)):
            other = "y" if name == "x" else "x"
            check_grads(solution, randn(xs, seed), randn(ys, seed + 10), 2.0, seed,
                        f"x {xs}, y {ys}, only {name} requires grad", wrt=(name,))
            x, y = randn(xs, seed), randn(ys, seed + 10)
            (x if name == "x" else y).requires_grad_()
            out = call(solution, x, y, 2.0)
            grads = node(solution, out).apply(randn(xs, 100 + seed))
            if not isinstance(grads, (tuple, list)) or len(grads) != 3:
                raise Wrong("backward must return 3 values (x, y, scale)")
            if grads[index] is None:
                raise Wrong(f"x {xs}, y {ys}, only {name} requires grad: backward returned None"
                            f" for {name}")
            if grads[1 - index] is not None:
                raise Wrong(f"x {xs}, y {ys}, only {name} requires grad: backward returned a"
                            f" {type(grads[1 - index]).__name__} for {other}, which needs no"
                            " gradient; expected None")


@TESTS.test("x and y are left unchanged by forward and backward (scale 2.0)",
            hint="do not multiply y by scale in place (y.mul_(scale)) or write into x: autograd"
                 " runs forward without grad mode, so nothing stops it, and the caller's tensors"
                 " change")
def test_inputs_unchanged(solution):
    for xs, ys in SHAPES[:3]:
        x, y = randn(xs, 0).requires_grad_(), randn(ys, 1).requires_grad_()
        x0, y0 = x.detach().clone(), y.detach().clone()
        out = call(solution, x, y, 2.0)
        torch.autograd.grad(out.sum(), (x, y))
        for name, now, before in (("x", x, x0), ("y", y, y0)):
            expect_tensor(now.detach(), before, f"x {xs}, y {ys}: {name} after forward and"
                          " backward", atol=0, rtol=0)


@TESTS.test("torch.autograd.gradcheck passes in float64 (y of shapes (D,), (T, 1) and 0-dim,"
            " scale 1.5)",
            hint="gradcheck compares your backward with finite differences of your forward: a"
                 " mismatch is a wrong formula, a missing factor or a sum over the wrong"
                 " dimensions")
def test_gradcheck(solution):
    fn = need(solution, "mul_sigmoid")
    for seed, (xs, ys) in enumerate((((3, 4), (4,)), ((2, 3, 2), (3, 1)), ((3, 2), ()))):
        x, y = randn(xs, seed).requires_grad_(), randn(ys, seed + 10).requires_grad_()
        try:
            torch.autograd.gradcheck(lambda a, b: fn(a, b, 1.5), (x, y))
        except GradcheckError as exc:
            raise Wrong(f"x {xs}, y {ys}: gradcheck: {str(exc).splitlines()[0]}") from None


@TESTS.test("saturated sigmoids: |y * scale| up to 100 in float32 give finite values and"
            " gradients, equal to the float64 truth",
            hint="use torch.sigmoid and write the derivative as s * (1 - s); exp(-z) / (1 +"
                 " exp(-z)) ** 2 is inf / inf = NaN in float32 once exp(-z) overflows (from z = -89 down)")
def test_saturated(solution):
    x = randn((4, 9), 0, torch.float32)
    y = torch.linspace(-50.0, 50.0, 9)
    for scale in (2.0, -2.0):
        expected = plain(x.double(), y.double(), scale).float()
        got = call(solution, x, y, scale)
        expect_tensor(got.detach(), expected,
                      f"forward, z = y * scale from -100 to 100 (scale {scale})",
                      atol=1e-6, rtol=1e-5)
        check_grads(solution, x, y, scale, 0,
                    f"float32, z = y * scale from -100 to 100 (scale {scale})",
                    atol=1e-6, rtol=1e-5)


@TESTS.test("float32 in, float32 out: values and gradients are float32 and near the float64"
            " truth; scale 0 gives x / 2 and a zero gradient of y",
            hint="compute in the inputs' dtype; nothing is special about scale = 0 (sigmoid(0) ="
                 " 0.5)")
def test_float32_and_zero_scale(solution):
    for seed, (xs, ys) in enumerate(SHAPES):
        check_grads(solution, randn(xs, seed, torch.float32), randn(ys, seed + 10, torch.float32),
                    0.5, seed, f"float32, x {xs}, y {ys}", atol=1e-5, rtol=1e-5)
    check_grads(solution, randn((3, 5), 0), randn((5,), 1), 0.0, 0, "scale 0")


@TESTS.test("x or y modified in place between forward and backward (as an optimizer step"
            " would): backward raises autograd's RuntimeError or returns the gradient at the"
            " values forward saw, never one of the modified values",
            hint="save tensors with ctx.save_for_backward, not as ctx.x = x: saved tensors carry"
                 " a version counter, and autograd refuses to use one that changed")
def test_modified_after_forward(solution):
    for name in ("x", "y"):
        x, y = randn((3, 4), 0).requires_grad_(), randn((4,), 1).requires_grad_()
        upstream = randn((3, 4), 2)
        expected = expected_grads(x, y, 2.0, upstream, "xy")
        out = call(solution, x, y, 2.0)
        with torch.no_grad():
            (x if name == "x" else y).mul_(3.0).add_(1.0)
        try:
            got = torch.autograd.grad((out * upstream).sum(), (x, y))
        except RuntimeError as exc:
            if "inplace operation" in str(exc):
                continue
            raise
        for which, mine, theirs in zip("xy", got, expected, strict=True):
            expect_tensor(mine, theirs, f"{name} modified in place after forward: the gradient"
                          f" of {which}", **F64)
