"""The judge of lora-linear. The trusted value is the formula in float64:
base.weight + (alpha / r) * lora_B @ lora_A applied to x, with the base's bias, on the solution's
own base weights and adapter values (the judge sets lora_A and lora_B to random values after
construction, except in the tests of the initial state). Gradients are checked against autograd
through that float64 formula. Around that: which tensors are parameters and which train, that the
base module is shared and not copied, the initial state (B zero, output equal to base), the scale
alpha / r measured from the output, batch shapes, and merge() (an nn.Linear, bias kept, self left
unchanged)."""

import torch
from _drill import Tests, Wrong, expect_tensor, need
from torch import nn

TESTS = Tests("lora-linear")
SEEDS = (0, 1, 2)
F32 = dict(atol=1e-5, rtol=1e-5)  # float32 against the float64 truth
F64 = dict(atol=1e-10, rtol=1e-10)
# (in_features, out_features, r, alpha): in != out everywhere, so a transposed weight cannot fit
CASES = ((16, 8, 4, 8.0), (10, 24, 2, 3.0), (32, 12, 8, 16.0))


def make_base(in_f, out_f, seed, dtype=torch.float32, bias=True):
    """A base nn.Linear whose weights depend on `seed` only (not on the global RNG)."""
    g = torch.Generator().manual_seed(1000 + seed)
    base = nn.Linear(in_f, out_f, bias=bias, dtype=dtype)
    with torch.no_grad():
        base.weight.copy_(torch.randn(out_f, in_f, generator=g, dtype=torch.float64) / in_f ** 0.5)
        if bias:
            base.bias.copy_(torch.randn(out_f, generator=g, dtype=torch.float64))
    return base


def adapter(lora, name, shape, dtype):
    """lora_A or lora_B: a tensor of the contract's shape and dtype, or Wrong."""
    value = getattr(lora, name, None)
    if not isinstance(value, torch.Tensor):
        raise Wrong(f"the layer has no tensor `{name}` (got {type(value).__name__})")
    if tuple(value.shape) != shape or value.dtype != dtype:
        raise Wrong(f"expected `{name}` of shape {shape} and dtype {dtype}, got"
                    f" {tuple(value.shape)} {value.dtype}")
    return value


def make(solution, in_f, out_f, r, alpha, seed, dtype=torch.float32, bias=True, set_ab=True):
    """(the solution's LoRALinear, the float64 weights of its base); with set_ab, lora_A and lora_B
    are then set to random values (the adapter after some training)."""
    base = make_base(in_f, out_f, seed, dtype, bias)
    truth = {"weight": base.weight.detach().double().clone(),
             "bias": base.bias.detach().double().clone() if bias else None,
             "scale": alpha / r}
    lora = need(solution, "LoRALinear")(base, r, alpha)
    a = adapter(lora, "lora_A", (r, in_f), dtype)
    b = adapter(lora, "lora_B", (out_f, r), dtype)
    if set_ab:
        g = torch.Generator().manual_seed(2000 + seed)
        with torch.no_grad():
            a.copy_(torch.randn(r, in_f, generator=g, dtype=torch.float64) / in_f ** 0.5)
            b.copy_(torch.randn(out_f, r, generator=g, dtype=torch.float64) * 0.5)
    return lora, truth


def expected(lora, truth, x):
    """The float64 truth: x @ (W + scale * B @ A)^T + bias, for the adapter lora holds now."""
    a, b = lora.lora_A.detach().double(), lora.lora_B.detach().double()
    out = x.double() @ (truth["weight"] + truth["scale"] * (b @ a)).T
    return out if truth["bias"] is None else out + truth["bias"]


def randn(shape, seed, dtype=torch.float32):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


def forward(lora, x, what):
    got = lora(x)
    if not isinstance(got, torch.Tensor):
        raise Wrong(f"{what}: forward returned {type(got).__name__}, not a tensor")
    return got


@TESTS.test("lora_A (r, in_features) and lora_B (out_features, r) are nn.Parameters in the base's"
            " dtype; the parameters are base.weight, base.bias, lora_A and lora_B, and only lora_A"
            " and lora_B require grad",
            hint="wrap the two matrices in nn.Parameter and set requires_grad_(False) on every"
                 " parameter of base; A is (r, in) and B is (out, r), so that B @ A has the"
                 " weight's shape (out, in)")
def test_parameters(solution):
    for dtype, bias in ((torch.float32, True), (torch.float64, False)):
        lora, _ = make(solution, 12, 20, 4, 8.0, 0, dtype, bias, set_ab=False)
        names = sorted(name for name, _ in lora.named_parameters())
        want = sorted(["base.weight", "lora_A", "lora_B"] + (["base.bias"] if bias else []))
        if names != want:
            raise Wrong(f"{dtype}, bias={bias}: expected the parameters {want}, got {names}")
        trainable = sorted(name for name, p in lora.named_parameters() if p.requires_grad)
        if trainable != ["lora_A", "lora_B"]:
            raise Wrong(f"{dtype}, bias={bias}: expected only ['lora_A', 'lora_B'] to require"
                        f" grad, got {trainable}")
        buffers = [name for name, _ in lora.named_buffers()]
        if buffers:
            raise Wrong(f"expected no buffers, got {buffers}")


@TESTS.test("the base Linear is shared, not copied: self.base is base, its weight is the same"
            " tensor, and a change to base.weight shows in the output",
            hint="store the module you are given (self.base = base); copy.deepcopy or"
                 " weight.clone() doubles the memory of the frozen weight")
def test_base_shared(solution):
    base = make_base(16, 8, 0)
    weight = base.weight
    lora = need(solution, "LoRALinear")(base, 4, 8.0)
    if getattr(lora, "base", None) is not base:
        raise Wrong("expected lora.base to be the very nn.Linear passed in (lora.base is base)")
    if base.weight is not weight or lora.base.weight.data_ptr() != weight.data_ptr():
        raise Wrong("base.weight was replaced: expected the same tensor, sharing its memory")
    x = randn((5, 16), 3)
    with torch.no_grad():
        base.weight.add_(1.0)
        base.bias.mul_(2.0)
    truth = {"weight": base.weight.detach().double(), "bias": base.bias.detach().double(),
             "scale": 2.0}
    expect_tensor(forward(lora, x, "after base.weight += 1").detach(),
                  expected(lora, truth, x).float(), "the output after base.weight += 1 and"
                  " base.bias *= 2", **F32)


@TESTS.test("at init lora_B is all zeros and lora_A random (finite, not all zero), so the output"
            " equals base(x) (to 1e-12 in float64, 1e-6 in float32)",
            hint="zero-initialise B and draw A at random: B @ A is then zero, the layer starts as"
                 " the base model, and A still receives gradient once B moves")
def test_init(solution):
    for seed, (in_f, out_f, r, alpha) in zip(SEEDS, CASES, strict=True):
        for dtype, tol in ((torch.float64, dict(atol=1e-12, rtol=1e-12)),
                           (torch.float32, dict(atol=1e-6, rtol=1e-6))):
            lora, _ = make(solution, in_f, out_f, r, alpha, seed, dtype, set_ab=False)
            a, b = lora.lora_A.detach(), lora.lora_B.detach()
            if bool(b.ne(0).any()):
                raise Wrong(f"seed {seed}, {dtype}: lora_B at init has {int(b.ne(0).sum())} nonzero"
                            " values; expected all zeros")
            if not bool(torch.isfinite(a).all()) or not bool(a.ne(0).any()):
                raise Wrong(f"seed {seed}, {dtype}: lora_A at init is "
                            + ("all zeros" if bool(torch.isfinite(a).all()) else "not finite")
                            + "; expected finite random values")
            x = randn((6, in_f), seed, dtype)
            expect_tensor(forward(lora, x, "at init").detach(), lora.base(x).detach(),
                          f"seed {seed}, {dtype}: the output at init against base(x)", **tol)


@TESTS.test("the LoRA term is scaled by alpha / r: measured from the output for (r, alpha) ="
            " (4, 16), (8, 2), (1, 1.5) and (16, 4)",
            hint="scale = alpha / r: not alpha, not 1 / r, not r / alpha; it multiplies the LoRA"
                 " term only, not base(x)")
def test_scale(solution):
    for seed, (r, alpha) in enumerate(((4, 16.0), (8, 2.0), (1, 1.5), (16, 4.0))):
        lora, truth = make(solution, 20, 12, r, alpha, seed, torch.float64)
        x = randn((7, 20), seed, torch.float64)
        with torch.no_grad():
            delta = forward(lora, x, f"r {r}, alpha {alpha}") - lora.base(x)
            unit = x @ lora.lora_A.T @ lora.lora_B.T
        fitted = float((delta * unit).sum() / (unit * unit).sum())
        if abs(fitted - alpha / r) > 1e-6 * (alpha / r):
            raise Wrong(f"r {r}, alpha {alpha}: the LoRA term is multiplied by {fitted:.6g},"
                        f" expected alpha / r = {alpha / r:g}")
        expect_tensor(delta + lora.base(x).detach(), expected(lora, truth, x),
                      f"r {r}, alpha {alpha}: the output", **F64)


@TESTS.test("at init (B = 0) the gradient of lora_A is zero and that of lora_B is not, and equals"
            " (alpha / r) * upstream^T @ (x @ A^T) (float64)",
            hint="with B zero, the only path to A goes through B, so A's first gradient is zero"
                 " while B's is not; if A's is not zero, B was not the matrix set to zero")
def test_init_grads(solution):
    for seed, (in_f, out_f, r, alpha) in zip(SEEDS, CASES, strict=True):
        lora, _ = make(solution, in_f, out_f, r, alpha, seed, torch.float64, set_ab=False)
        x, up = randn((3, 5, in_f), seed, torch.float64), randn((3, 5, out_f), 9, torch.float64)
        got = forward(lora, x, "at init")
        if got.grad_fn is None:
            raise Wrong("the output has no grad_fn: autograd cannot reach lora_A and lora_B")
        grad_a, grad_b = torch.autograd.grad((got * up).sum(), [lora.lora_A, lora.lora_B],
                                             allow_unused=True)
        if grad_a is None or grad_b is None:
            raise Wrong(f"no gradient reaches {'lora_A' if grad_a is None else 'lora_B'}")
        if bool(grad_a.ne(0).any()):
            raise Wrong(f"seed {seed}: the gradient of lora_A at init has largest value"
                        f" {float(grad_a.abs().max()):.3g}; expected exactly zero (B = 0)")
        xa = x.reshape(-1, in_f) @ lora.lora_A.detach().T  # (N, r)
        want = alpha / r * up.reshape(-1, out_f).T @ xa
        if not bool(grad_b.ne(0).any()):
            raise Wrong(f"seed {seed}: the gradient of lora_B at init is all zeros")
        expect_tensor(grad_b, want, f"seed {seed}: the gradient of lora_B at init", **F64)


@TESTS.test("with random lora_A and lora_B the output equals x @ (W + alpha / r * B @ A)^T + bias"
            " in float64 (3 seeds, 3 shapes, with and without a bias; float32 to 1e-5, float64 to"
            " 1e-10)",
            hint="base(x) + (alpha / r) * (x @ lora_A.T) @ lora_B.T: A first (in -> r), then B"
                 " (r -> out)")
def test_matches_reference(solution):
    for seed in SEEDS:
        for in_f, out_f, r, alpha in CASES:
            for dtype, bias in ((torch.float32, True), (torch.float32, False),
                                (torch.float64, True)):
                lora, truth = make(solution, in_f, out_f, r, alpha, seed, dtype, bias)
                x = randn((4, in_f), seed + 10, dtype)
                what = f"seed {seed}, in {in_f}, out {out_f}, r {r}, {dtype}, bias={bias}"
                expect_tensor(forward(lora, x, what).detach(), expected(lora, truth, x).to(dtype),
                              what, **(F32 if dtype == torch.float32 else F64))


@TESTS.test("batch shapes: x of shape (in,), (1, in), (B, T, in) and (2, 3, 4, in) give (...,"
            " out) with the same values",
            hint="x @ lora_A.T works on any leading dimensions; do not flatten x or assume 2-d")
def test_batch_shapes(solution):
    lora, truth = make(solution, 16, 8, 4, 8.0, 1)
    for seed, shape in enumerate(((16,), (1, 16), (2, 5, 16), (2, 3, 4, 16))):
        x = randn(shape, 20 + seed)
        expect_tensor(forward(lora, x, f"x {shape}").detach(), expected(lora, truth, x).float(),
                      f"x {shape}", **F32)


@TESTS.test("gradients of x, lora_A and lora_B equal autograd's through the float64 formula;"
            " base.weight.grad and base.bias.grad stay None after backward()",
            hint="build the output from differentiable ops on lora_A and lora_B; freeze the base"
                 " with requires_grad_(False) (not by detaching x, which cuts the gradient to x)")
def test_gradients(solution):
    for seed, (in_f, out_f, r, alpha) in zip(SEEDS, CASES, strict=True):
        lora, truth = make(solution, in_f, out_f, r, alpha, seed, torch.float64)
        x = randn((2, 3, in_f), seed, torch.float64).requires_grad_()
        up = randn((2, 3, out_f), seed + 5, torch.float64)
        got = forward(lora, x, f"seed {seed}")
        if got.grad_fn is None:
            raise Wrong("the output has no grad_fn: autograd cannot reach x, lora_A and lora_B")
        (got * up).sum().backward()
        for name in ("weight", "bias"):
            if getattr(lora.base, name).grad is not None:
                raise Wrong(f"seed {seed}: base.{name}.grad is not None after backward(): the base"
                            " is not frozen")
        a, b = (lora.lora_A.detach().clone().requires_grad_(),
                lora.lora_B.detach().clone().requires_grad_())
        xs = x.detach().clone().requires_grad_()
        out = xs @ truth["weight"].T + truth["bias"] + truth["scale"] * (xs @ a.T) @ b.T
        wants = torch.autograd.grad((out * up).sum(), [xs, a, b])
        for name, mine, want in zip(("x", "lora_A", "lora_B"), (x.grad, lora.lora_A.grad,
                                                                 lora.lora_B.grad), wants,
                                    strict=True):
            if mine is None:
                raise Wrong(f"seed {seed}: no gradient reaches {name}")
            expect_tensor(mine, want, f"seed {seed}: the gradient of {name}", **F64)


@TESTS.test("merge() returns an nn.Linear of the base's dtype with weight W + alpha / r * B @ A,"
            " whose output equals the layer's (bases without a bias; float32 to 1e-5, float64 to"
            " 1e-10)",
            hint="weight = base.weight + (alpha / r) * lora_B @ lora_A: (out, r) @ (r, in) is"
                 " (out, in), the weight's own shape, and the scale applies here too")
def test_merge(solution):
    for seed, (in_f, out_f, r, alpha) in zip(SEEDS, CASES, strict=True):
        for dtype in (torch.float32, torch.float64):
            lora, truth = make(solution, in_f, out_f, r, alpha, seed, dtype, bias=False)
            what = f"seed {seed}, in {in_f}, out {out_f}, r {r}, {dtype}"
            x = randn((2, 5, in_f), seed + 30, dtype)
            want = expected(lora, truth, x).to(dtype)  # the layer's output, before merge()
            merged = lora.merge()
            if not isinstance(merged, nn.Linear):
                raise Wrong(f"{what}: merge() returned {type(merged).__name__}, expected an"
                            " nn.Linear")
            tol = F32 if dtype == torch.float32 else F64
            want_w = truth["weight"] + truth["scale"] * (lora.lora_B.detach().double()
                                                         @ lora.lora_A.detach().double())
            expect_tensor(merged.weight.detach(), want_w.to(dtype), f"{what}: the merged weight",
                          **tol)
            if merged.weight.dtype != dtype:
                raise Wrong(f"{what}: the merged weight is {merged.weight.dtype}, expected {dtype}")
            with torch.no_grad():
                expect_tensor(merged(x), want, f"{what}: merged(x) against the layer's output",
                              **tol)


@TESTS.test("merge() keeps the bias: merged.bias equals base.bias, and a base without a bias"
            " gives merged.bias None, with the outputs equal",
            hint="build nn.Linear(in, out, bias=base.bias is not None) and copy base.bias into it")
def test_merge_bias(solution):
    for bias in (True, False):
        lora, truth = make(solution, 16, 8, 4, 8.0, 2, bias=bias)
        merged = lora.merge()
        if not isinstance(merged, nn.Linear):
            raise Wrong(f"merge() returned {type(merged).__name__}, expected an nn.Linear")
        if bias:
            if merged.bias is None:
                raise Wrong("the base has a bias, but merged.bias is None")
            expect_tensor(merged.bias.detach(), truth["bias"].float(), "merged.bias", atol=0,
                          rtol=0)
        elif merged.bias is not None:
            raise Wrong("the base has no bias, but merged.bias is a tensor")
        x = randn((4, 16), 40 + bias)
        with torch.no_grad():
            expect_tensor(merged(x), expected(lora, truth, x).float(),
                          f"bias={bias}: merged(x)", **F32)


@TESTS.test("merge() leaves the layer unchanged: base.weight, lora_A, lora_B and the output are"
            " the same after it, merging twice gives the same weight",
            hint="compute the merged weight into a new tensor (w + scale * B @ A), not with"
                 " base.weight.add_(...), which merges the adapter into the base a second time"
                 " on every forward")
def test_merge_leaves_layer(solution):
    lora, truth = make(solution, 10, 24, 2, 3.0, 1)
    x = randn((3, 10), 50)
    with torch.no_grad():
        before = {"base.weight": lora.base.weight.detach().clone(),
                  "lora_A": lora.lora_A.detach().clone(), "lora_B": lora.lora_B.detach().clone(),
                  "the output": lora(x).clone()}
    first = lora.merge()
    second = lora.merge()
    with torch.no_grad():
        after = {"base.weight": lora.base.weight, "lora_A": lora.lora_A, "lora_B": lora.lora_B,
                 "the output": lora(x)}
    for name, value in before.items():
        expect_tensor(after[name].detach(), value, f"{name} after merge()", atol=0, rtol=0)
    if not isinstance(first, nn.Linear) or not isinstance(second, nn.Linear):
        raise Wrong("merge() did not return an nn.Linear")
    expect_tensor(second.weight.detach(), first.weight.detach(),
                  "the weight of a second merge() against the first", atol=0, rtol=0)
    expect_tensor(lora(x).detach(), expected(lora, truth, x).float(),
                  "the output after merge()", **F32)
