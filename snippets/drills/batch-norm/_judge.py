"""The judge of batch-norm: the solution's module against torch.nn.BatchNorm1d with the same
weight and bias, run step by step on the same batches. The trusted module runs in float64 on the
float64 copy of each batch, so what the float32 solution is held to is the exact value, not
torch's float32 rounding; in eval mode the trusted module uses its own running statistics, so a
solution whose statistics drift also fails there. Around that: the module's parameters and
buffers as nn.BatchNorm1d declares them (state_dict, parameters(), .double()), what eval mode must
leave alone, (N, C, L) inputs, batch 1, extreme values and gradients of x, weight and bias."""

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("batch-norm")
SEEDS = (0, 1, 2)
F32 = dict(atol=2e-5, rtol=1e-5)  # float32 against the float64 truth
BUFFERS = ("running_mean", "running_var", "num_batches_tracked")


def randn(shape, seed, dtype=torch.float32, scale=1.0, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=g, dtype=dtype) * scale + shift


def make(solution, c, eps=1e-5, momentum=0.1):
    """The solution's module and nn.BatchNorm1d in float64, with the same random weight and bias."""
    mine = need(solution, "BatchNorm")(c, eps=eps, momentum=momentum)
    theirs = torch.nn.BatchNorm1d(c, eps=eps, momentum=momentum, dtype=torch.float64)
    weight, bias = randn((c,), 100 + c).abs() + 0.5, randn((c,), 200 + c)
    with torch.no_grad():
        for name, value in (("weight", weight), ("bias", bias)):
            param = getattr(mine, name, None)
            if not isinstance(param, torch.Tensor) or tuple(param.shape) != (c,):
                raise Wrong(f"expected a ({c},) tensor `{name}` on the module, got "
                            + (f"{tuple(param.shape)}" if isinstance(param, torch.Tensor)
                               else type(param).__name__))
            param.copy_(value)
            getattr(theirs, name).copy_(value.double())
    return mine, theirs


def buffer(module, name):
    value = getattr(module, name, None)
    if not isinstance(value, torch.Tensor):
        raise Wrong(f"the module has no tensor `{name}` (got {type(value).__name__})")
    return value


def expect_buffers(mine, theirs, what, **tol):
    for name in ("running_mean", "running_var"):
        got, expected = buffer(mine, name), buffer(theirs, name)
        expect_tensor(got.detach(), expected.to(got.dtype if got.is_floating_point()
                                                else expected.dtype),
                      f"{what}: {name}", **(tol or F32))
    got = buffer(mine, "num_batches_tracked")
    if got.dtype != torch.int64 or got.dim() != 0 or int(got) != int(theirs.num_batches_tracked):
        raise Wrong(f"{what}: expected num_batches_tracked = tensor({int(theirs.num_batches_tracked)})"
                    f" (0-dim int64), got {got.dim()}-dim {got.dtype} {got.tolist()}")


def step(mine, theirs, x, what, **tol):
    """One forward of both modules (in their current modes) on x; compares the outputs."""
    got = mine(x)
    expected = theirs(x.double()).detach().to(x.dtype)
    expect_tensor(got.detach() if isinstance(got, torch.Tensor) else got, expected, what,
                  **(tol or F32))
    return got


@TESTS.test("returns x's shape and dtype: (N, C) and (N, C, L), float32, and float64 after"
            " .double()",
            hint="the output is (x - mean) / sqrt(var + eps) * weight + bias, with the (C,)"
                 " vectors reshaped to broadcast over N (and L)")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        for shape in ((6, 3), (4, 3, 5)):
            module = need(solution, "BatchNorm")(3)
            module = module.double() if dtype == torch.float64 else module
            for mode in ("train", "eval"):
                module.train(mode == "train")
                got = module(randn(shape, 0, dtype))
                if not isinstance(got, torch.Tensor) or tuple(got.shape) != shape \
                        or got.dtype != dtype:
                    raise Wrong(f"for x {shape} in {dtype}, {mode} mode: expected a {shape} {dtype}"
                                " tensor, got " + (f"{tuple(got.shape)} {got.dtype}"
                                                   if isinstance(got, torch.Tensor)
                                                   else type(got).__name__))


@TESTS.test("weight and bias are the only parameters; running_mean, running_var and"
            " num_batches_tracked are buffers: state_dict() as nn.BatchNorm1d's, loadable from it,"
            " converted by .double()",
            hint="create the statistics with self.register_buffer(name, tensor): a plain attribute"
                 " is not saved in state_dict, and an nn.Parameter is listed in parameters()")
def test_parameters_and_buffers(solution):
    module = need(solution, "BatchNorm")(4)
    torch_bn = torch.nn.BatchNorm1d(4)
    params = sorted(name for name, _ in module.named_parameters())
    if params != ["bias", "weight"]:
        raise Wrong(f"expected the parameters ['bias', 'weight'], got {params}")
    buffers = sorted(name for name, _ in module.named_buffers())
    if buffers != sorted(BUFFERS):
        raise Wrong(f"expected the buffers {sorted(BUFFERS)}, got {buffers}")
    keys, expected_keys = sorted(module.state_dict()), sorted(torch_bn.state_dict())
    if keys != expected_keys:
        raise Wrong(f"expected the state_dict keys {expected_keys}, got {keys}")
    for name, value in torch_bn.state_dict().items():
        got = module.state_dict()[name]
        expect_tensor(got, value, f"the initial {name}", atol=0, rtol=0)
    trained = torch.nn.BatchNorm1d(4)
    with torch.no_grad():
        trained.weight.uniform_(0.5, 1.5)
        trained.bias.normal_()
    for seed in SEEDS:
        trained(randn((8, 4), seed, shift=2.0))
    module.load_state_dict(trained.state_dict())  # strict: same keys, same shapes
    for name, value in trained.state_dict().items():
        expect_tensor(module.state_dict()[name], value, f"{name} after load_state_dict from a"
                      " trained nn.BatchNorm1d", atol=0, rtol=0)
    double = need(solution, "BatchNorm")(4).double()
    for name in ("running_mean", "running_var"):
        if buffer(double, name).dtype != torch.float64:
            raise Wrong(f"after .double(): expected {name} in torch.float64, got"
                        f" {buffer(double, name).dtype}")


@TESTS.test("training mode equals nn.BatchNorm1d for (N, C) (3 seeds, C = 1, 5 and 16; eps 1e-5"
            " and 1e-3)",
            hint="normalise with the batch's mean and its biased variance, over dimension 0:"
                 " x.var(dim=0, correction=0), not torch.var's default (unbiased); eps is added"
                 " to the variance, inside the square root")
def test_train_output(solution):
    for seed in SEEDS:
        for n, c in ((8, 1), (6, 5), (32, 16)):
            for eps in (1e-5, 1e-3):
                mine, theirs = make(solution, c, eps=eps)
                mine.train(), theirs.train()
                step(mine, theirs, randn((n, c), seed, scale=2.0, shift=0.5),
                     f"seed {seed}, x ({n}, {c}), eps {eps}")


@TESTS.test("after 5 training steps, running_mean, running_var and num_batches_tracked equal"
            " nn.BatchNorm1d's (momentum 0.1 and 0.3)",
            hint="running = (1 - momentum) * running + momentum * batch statistic, and the running"
                 " variance takes the unbiased variance (times n / (n - 1)); count the steps in"
                 " num_batches_tracked")
def test_running_stats(solution):
    for momentum in (0.1, 0.3):
        for seed in SEEDS:
            mine, theirs = make(solution, 6, momentum=momentum)
            mine.train(), theirs.train()
            for k in range(5):
                step(mine, theirs, randn((10, 6), 10 * seed + k, scale=1.5, shift=1.0),
                     f"momentum {momentum}, seed {seed}, step {k + 1}: the output")
                expect_buffers(mine, theirs, f"momentum {momentum}, seed {seed}, after step {k + 1}")


@TESTS.test("eval mode normalises with the running statistics, as nn.BatchNorm1d does (after 3"
            " training steps; batches of 7 and of 1)",
            hint="in eval mode (not self.training) use running_mean and running_var in place of"
                 " the batch's statistics")
def test_eval_output(solution):
    for seed in SEEDS:
        mine, theirs = make(solution, 5)
        mine.train(), theirs.train()
        for k in range(3):
            step(mine, theirs, randn((12, 5), 10 * seed + k, scale=3.0, shift=-2.0),
                 f"seed {seed}, training step {k + 1}")
        mine.eval(), theirs.eval()
        step(mine, theirs, randn((7, 5), 50 + seed), f"seed {seed}, eval, a batch of 7")
        step(mine, theirs, randn((1, 5), 60 + seed), f"seed {seed}, eval, a batch of 1")


@TESTS.test("eval mode changes no buffer: running_mean, running_var and num_batches_tracked stay"
            " as training left them",
            hint="update the running statistics and num_batches_tracked only in training mode")
def test_eval_leaves_buffers(solution):
    mine, theirs = make(solution, 4)
    mine.train(), theirs.train()
    for k in range(2):
        step(mine, theirs, randn((9, 4), k, shift=1.0), f"training step {k + 1}")
    mine.eval(), theirs.eval()
    with torch.no_grad():
        before = {name: buffer(mine, name).clone() for name in BUFFERS}
    for k in range(3):
        mine(randn((6, 4), 20 + k, scale=4.0, shift=-3.0))
        for name in BUFFERS:
            expect_tensor(buffer(mine, name).detach(), before[name],
                          f"{name} after {k + 1} eval forward(s)", atol=0, rtol=0)


@TESTS.test("(N, C, L) inputs: statistics per channel over N and L; train output, buffers and"
            " eval output equal nn.BatchNorm1d's (3 seeds)",
            hint="reduce over dimensions 0 and 2, so every channel has n = N * L values (the n of"
                 " the unbiased correction too); a reshape of (N, C, L) to (-1, C) mixes the channels")
def test_three_d_input(solution):
    for seed in SEEDS:
        for n, c, length in ((4, 3, 7), (2, 8, 16)):
            mine, theirs = make(solution, c)
            mine.train(), theirs.train()
            x = randn((n, c, length), seed, scale=2.0) + torch.arange(c).reshape(1, c, 1)
            what = f"seed {seed}, x ({n}, {c}, {length})"
            for k in range(3):
                step(mine, theirs, x + k, f"{what}, training step {k + 1}")
                expect_buffers(mine, theirs, f"{what}, after step {k + 1}")
            mine.eval(), theirs.eval()
            step(mine, theirs, randn((n, c, length), seed + 7), f"{what}, eval")


@TESTS.test("extremes: values around 10,000 with a spread of 1, a spread of 1e-4 (below eps) and"
            " values of 1e6 in float32; a constant channel in float64",
            hint="take the variance as the mean of (x - mean) ** 2, not mean(x ** 2) - mean ** 2,"
                 " which cancels in float32; eps goes inside the square root")
def test_extremes(solution):
    cases = (("values 10,000 + N(0, 1)", randn((64, 4), 0, shift=1e4), 2e-3),
             ("values 3 + N(0, 1e-4 ** 2), variance below eps", randn((64, 4), 1, scale=1e-4,
                                                                     shift=3.0), 1e-4),
             ("values of size 1e6", randn((64, 4), 2, scale=1e6), 2e-5))
    for what, x, atol in cases:
        mine, theirs = make(solution, 4)
        mine.train(), theirs.train()
        step(mine, theirs, x, f"{what}: the output", atol=atol, rtol=1e-5)
        expect_buffers(mine, theirs, what, atol=1e-3, rtol=1e-4)
    mine, theirs = make(solution, 3)
    mine.double().train(), theirs.train()
    x = randn((16, 3), 3, torch.float64)
    x[:, 1] = 5.0  # a constant channel: its output is its bias. In float64, because torch's
    # float32 kernel is itself off by 4e-5 there (the judge's check run on nn.BatchNorm1d).
    step(mine, theirs, x, "float64, one constant channel (variance 0)", atol=1e-9, rtol=1e-9)


@TESTS.test("batch 1 with L = 5 and L = 1 with N = 6 train as nn.BatchNorm1d does; one value per"
            " channel in training raises ValueError",
            hint="the n of the unbiased correction is N * L, the values per channel, not N; with"
                 " n == 1 there is no variance to take: raise ValueError")
def test_batch_one(solution):
    for shape in ((1, 4, 5), (6, 4, 1), (1, 4, 2)):
        mine, theirs = make(solution, 4)
        mine.train(), theirs.train()
        for k in range(3):
            step(mine, theirs, randn(shape, k, shift=1.0), f"x {shape}, training step {k + 1}")
            expect_buffers(mine, theirs, f"x {shape}, after step {k + 1}")
    for shape in ((1, 4), (1, 4, 1)):
        mine = need(solution, "BatchNorm")(4)
        mine.train()
        try:
            got = mine(randn(shape, 0))
        except ValueError:
            continue
        raise Wrong(f"training on x {shape} (one value per channel): expected ValueError, got "
                    + (f"a {tuple(got.shape)} tensor" if isinstance(got, torch.Tensor)
                       else type(got).__name__))


@TESTS.test("gradients of x, weight and bias equal nn.BatchNorm1d's (float64), in training and"
            " eval mode, for (N, C) and (N, C, L); the buffers hold no autograd history",
            hint="keep the batch mean and variance in the graph (no .detach() or no_grad on them),"
                 " but update the buffers under torch.no_grad()")
def test_gradients(solution):
    for shape in ((8, 5), (4, 5, 6)):
        mine, theirs = make(solution, 5)
        mine.double()
        what = f"x {shape}"
        for mode in ("train", "train", "eval"):
            mine.train(mode == "train"), theirs.train(mode == "train")
            x = randn(shape, len(what) + mode.count("a"), torch.float64, 2.0, 1.0)
            xs = (x.clone().requires_grad_(), x.clone().requires_grad_())
            got, expected = mine(xs[0]), theirs(xs[1])
            for name in ("running_mean", "running_var"):
                if buffer(mine, name).requires_grad:
                    raise Wrong(f"{what}, {mode} mode: {name} requires grad (it carries the"
                                " graph of the batch that updated it)")
            if not isinstance(got, torch.Tensor) or got.grad_fn is None:
                raise Wrong(f"{what}, {mode} mode: the output has no grad_fn")
            up = randn(shape, 77, torch.float64)
            mine_grads = torch.autograd.grad((got * up).sum(), [xs[0], mine.weight, mine.bias])
            their_grads = torch.autograd.grad((expected * up).sum(),
                                              [xs[1], theirs.weight, theirs.bias])
            for name, g, e in zip(("x", "weight", "bias"), mine_grads, their_grads, strict=True):
                expect_tensor(g, e, f"{what}, {mode} mode: the gradient of {name}",
                              atol=1e-9, rtol=1e-8)
