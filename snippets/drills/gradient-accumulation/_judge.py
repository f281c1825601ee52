"""The judge of gradient-accumulation. The trusted result is the large batch itself: a float64
copy of the same model (same weights) and the same kind of optimizer take one zero_grad(), one
backward of loss_fn over the concatenated batch and one step(). The solution's parameters, its
gradients after the call and the loss it returns are compared with that copy's. Steps are counted
with the optimizer's step post-hook, forwards with a forward pre-hook on the model."""

import torch
from _drill import Tests, Wrong, expect_tensor, need
from torch import nn

TESTS = Tests("gradient-accumulation")
SEEDS = (0, 1, 2)
F64 = dict(atol=1e-10, rtol=1e-8)
F32 = dict(atol=2e-5, rtol=1e-4)

OPTIMIZERS = {
    "SGD": lambda params: torch.optim.SGD(params, lr=0.1),
    "SGD with momentum": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
    "AdamW": lambda params: torch.optim.AdamW(params, lr=0.01, weight_decay=0.1),
}


def make_model(kind, seed, dtype):
    with torch.random.fork_rng():  # the weights depend on the seed only
        torch.manual_seed(seed)
        if kind == "regression":
            model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
        else:
            model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 4))
    return model.to(dtype)


def make_batch(kind, n, seed, dtype):
    g = torch.Generator().manual_seed(1000 + seed)
    if kind == "regression":
        return torch.randn(n, 5, generator=g).to(dtype), torch.randn(n, 3, generator=g).to(dtype)
    return torch.randn(n, 6, generator=g).to(dtype), torch.randint(0, 4, (n,), generator=g)


def loss_for(kind):
    return nn.MSELoss() if kind == "regression" else nn.CrossEntropyLoss()


def split(x, y, sizes):
    out, start = [], 0
    for n in sizes:
        out.append((x[start:start + n], y[start:start + n]))
        start += n
    return out


class Run:
    """Calls of accumulate_step on a model, beside the float64 large-batch reference."""

    def __init__(self, kind, optimizer, seed, dtype=torch.float64):
        self.kind, self.seed, self.dtype = kind, seed, dtype
        self.model, self.trusted = make_model(kind, seed, dtype), make_model(kind, seed, torch.float64)
        self.optimizer = OPTIMIZERS[optimizer](self.model.parameters())
        self.trusted_optimizer = OPTIMIZERS[optimizer](self.trusted.parameters())
        self.loss_fn, self.calls, self.steps, self.forwards = loss_for(kind), 0, 0, []
        self.optimizer.register_step_post_hook(lambda *args: self._count())
        self.model.register_forward_pre_hook(self._forward)

    def _count(self):
        self.steps += 1

    def _forward(self, module, args):
        grad = next(module.parameters()).grad
        self.forwards.append((args[0].shape[0], grad is not None and bool(grad.abs().sum() > 0)))

    def call(self, solution, sizes):
        """One accumulate_step over micro-batches of `sizes`; returns what it returned."""
        x, y = make_batch(self.kind, sum(sizes), 10 * self.seed + self.calls, self.dtype)
        self.calls += 1
        self.trusted_optimizer.zero_grad()
        loss = self.loss_fn(self.trusted(x.double()), y.double() if self.kind == "regression" else y)
        loss.backward()
        self.trusted_loss = loss.item()
        self.trusted_grads = [p.grad.clone() for p in self.trusted.parameters()]
        self.trusted_optimizer.step()
        self.steps, self.forwards = 0, []
        return need(solution, "accumulate_step")(self.model, self.loss_fn, self.optimizer,
                                                 split(x, y, sizes))

    def check_parameters(self, what, **tol):
        for (name, p), q in zip(self.model.named_parameters(), self.trusted.parameters(), strict=True):
            expect_tensor(p.detach(), q.detach().to(p.dtype), f"{what}: parameter {name} after the call",
                          **(tol or F64))

    def check_gradients(self, what, **tol):
        for (name, p), g in zip(self.model.named_parameters(), self.trusted_grads, strict=True):
            if p.grad is None:
                raise Wrong(f"{what}: parameter {name} has no .grad after the call")
            expect_tensor(p.grad, g.to(p.dtype), f"{what}: {name}.grad after the call"
                          " (the full batch's mean-loss gradient)", **(tol or F64))


@TESTS.test("one micro-batch, the whole batch of 8: the parameters after the call equal one SGD step"
            " on it (3 seeds, float64)",
            hint="zero the gradients, forward, loss_fn, backward, then optimizer.step() once")
def test_one_micro_batch(solution):
    for seed in SEEDS:
        run = Run("regression", "SGD", seed)
        run.call(solution, [8])
        run.check_parameters(f"seed {seed}, sizes [8]")


@TESTS.test("four equal micro-batches of 4 give the SGD step of the batch of 16 (3 seeds)",
            hint="each micro-batch's loss is a mean over its own samples; summed as they are, k"
                 " means give k times the full batch's gradient: weight each by its share of the"
                 " batch, and step once, after the last backward")
def test_equal_sizes(solution):
    for seed in SEEDS:
        run = Run("regression", "SGD", seed)
        run.call(solution, [4, 4, 4, 4])
        run.check_parameters(f"seed {seed}, sizes [4, 4, 4, 4]")


@TESTS.test("micro-batches of different sizes ([1, 5, 2, 8] and [3, 3, 2]) give the SGD step of the"
            " whole batch (3 seeds)",
            hint="the full mean is sum(n_i * mean_i) / N: weight micro-batch i's loss by n_i / N,"
                 " not 1 / (number of micro-batches), which is right only when the sizes are equal")
def test_unequal_sizes(solution):
    for seed in SEEDS:
        for sizes in ([1, 5, 2, 8], [3, 3, 2]):
            run = Run("regression", "SGD", seed)
            run.call(solution, sizes)
            run.check_parameters(f"seed {seed}, sizes {sizes}")


@TESTS.test("returns the full batch's mean loss before the step as a Python float, for equal and"
            " unequal sizes",
            hint="sum each micro-batch's loss times its size, divide by N; the mean of the micro"
                 " losses weights a micro-batch of 1 like one of 8. Return a float (.item()), not"
                 " a tensor")
def test_returns_loss(solution):
    for seed in SEEDS:
        for sizes in ([4, 4], [1, 5, 2, 8], [7]):
            run = Run("regression", "SGD", seed)
            got = run.call(solution, sizes)
            if not isinstance(got, float):
                raise Wrong(f"seed {seed}, sizes {sizes}: expected a Python float, got"
                            f" {type(got).__name__}")
            if abs(got - run.trusted_loss) > 1e-9 * max(1.0, abs(run.trusted_loss)):
                raise Wrong(f"seed {seed}, sizes {sizes}: returned {got:.6g}, the full batch's mean"
                            f" loss is {run.trusted_loss:.6g}")


@TESTS.test("gradients left in .grad before the call do not count: random .grad values set before"
            " the call change nothing",
            hint="call optimizer.zero_grad() once at the start, before the first backward:"
                 " backward adds into .grad, it does not overwrite it")
def test_stale_gradients(solution):
    for seed in SEEDS:
        run = Run("regression", "SGD", seed)
        g = torch.Generator().manual_seed(seed)
        for p in run.model.parameters():
            p.grad = torch.randn(p.shape, generator=g, dtype=p.dtype)
        run.call(solution, [3, 5])
        run.check_parameters(f"seed {seed}, sizes [3, 5], after stale .grad values")


@TESTS.test("the optimizer steps exactly once per call, after every micro-batch (SGD with momentum,"
            " 4 micro-batches)",
            hint="optimizer.step() goes after the loop, not inside it")
def test_steps_once(solution):
    for seed in SEEDS:
        run = Run("regression", "SGD with momentum", seed)
        run.call(solution, [2, 3, 2, 1])
        if run.steps != 1:
            raise Wrong(f"seed {seed}, 4 micro-batches: optimizer.step() ran {run.steps} times,"
                        " expected once")
        run.check_parameters(f"seed {seed}, sizes [2, 3, 2, 1]")


@TESTS.test("after the call each parameter's .grad is the full batch's mean-loss gradient (the one"
            " the step used)",
            hint="zero the gradients once, before the first micro-batch: zeroing inside the loop"
                 " keeps only the last micro-batch's gradient")
def test_gradients(solution):
    for seed in SEEDS:
        run = Run("regression", "SGD", seed)
        run.call(solution, [2, 6, 3])
        run.check_gradients(f"seed {seed}, sizes [2, 6, 3]")


@TESTS.test("each micro-batch goes through the model alone, in order, and its backward runs before"
            " the next micro-batch's forward",
            hint="do not concatenate the micro-batches, and do not sum the losses for one backward"
                 " at the end: that keeps every micro-batch's graph alive at once. Forward, loss,"
                 " backward, for one micro-batch at a time")
def test_per_micro_batch(solution):
    for sizes in ([2, 6, 3], [4, 4, 4, 4]):
        run = Run("regression", "SGD", 0)
        run.call(solution, sizes)
        got = [n for n, _ in run.forwards]
        if got != sizes:
            raise Wrong(f"micro-batches of {sizes}: the model's forward saw batches of {got}")
        late = [i for i, (_, has_grad) in enumerate(run.forwards) if i > 0 and not has_grad]
        if late:
            raise Wrong(f"micro-batches of {sizes}: no gradient had been accumulated yet when"
                        f" micro-batch {late[0]}'s forward ran: backward on each micro-batch"
                        " before the next forward")


@TESTS.test("AdamW, three calls in a row (its state carries over), unequal sizes: the same"
            " parameters as three large-batch steps (3 seeds)",
            hint="the optimizer is the caller's: step it once per call and do not recreate or"
                 " reset it; zero the gradients at the start of every call")
def test_adamw(solution):
    for seed in SEEDS:
        run = Run("regression", "AdamW", seed)
        for call, sizes in enumerate(([3, 1, 4], [2, 2], [5, 1])):
            run.call(solution, sizes)
            run.check_parameters(f"seed {seed}, AdamW call {call + 1}, sizes {sizes}")


@TESTS.test("float32, classification with CrossEntropyLoss and SGD with momentum, three calls of"
            " unequal sizes: within 2e-5 of the float64 large batch",
            hint="nothing here depends on the loss: weight each micro-batch's mean by n_i / N")
def test_float32_classifier(solution):
    for seed in SEEDS:
        run = Run("classifier", "SGD with momentum", seed, torch.float32)
        for call, sizes in enumerate(([6, 2], [1, 4, 3], [8])):
            run.call(solution, sizes)
            run.check_parameters(f"seed {seed}, call {call + 1}, sizes {sizes}", **F32)
