"""The judge of adamw-from-scratch: the solution's AdamW and torch.optim.AdamW(foreach=False),
the single-tensor loop of torch/optim/adam.py, run side by side on identical copies of the same
parameters, with the same losses, and the parameters compared after every step (float64 unless a
test says otherwise). The losses are a small MLP's on batches drawn from seeded generators."""

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("adamw-from-scratch")
SEEDS = (0, 1, 2)
TIGHT = dict(atol=1e-12, rtol=1e-10)  # float64; an update is about lr, 1e-3 to 5e-2


def mlp(seed, dtype=torch.float64, sizes=(4, 8, 3)):
    """W1, b1, W2, b2 of a tanh MLP, as leaves that require grad."""
    g = torch.Generator().manual_seed(seed)
    n_in, n_hidden, n_out = sizes
    shapes = [(n_hidden, n_in), (n_hidden,), (n_out, n_hidden), (n_out,)]
    return [torch.randn(s, generator=g, dtype=dtype).requires_grad_() for s in shapes]


def mlp_loss(params, step, seed, batch=5, scale=1.0):
    """The MSE of the MLP on batch `step` of `seed`; the same for every copy of the parameters."""
    w1, b1, w2, b2 = params[:4]
    g = torch.Generator().manual_seed(1000 * seed + step)
    x = torch.randn(batch, w1.shape[1], generator=g, dtype=w1.dtype)
    y = torch.randn(batch, w2.shape[0], generator=g, dtype=w1.dtype)
    return ((torch.tanh(x @ w1.T + b1) @ w2.T + b2 - y) ** 2).mean() * scale


def copies(params):
    return [p.detach().clone().requires_grad_(p.requires_grad) for p in params]


def check(mine, theirs, what, **tolerance):
    for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if not (a.is_leaf and a.requires_grad):
            raise Wrong(f"{what}: parameter {i} is no longer a leaf that requires grad (update it"
                        " in place under torch.no_grad())")
        expect_tensor(a.detach(), b.detach(), f"{what}, parameter {i}", **(tolerance or TIGHT))


def side_by_side(solution, params, steps, loss, what, arrange=list, reference=torch.optim.AdamW,
                 **hyper):
    """Step the solution's optimizer and torch's on copies of `params`; compare after each step.
    `loss(params, step)` is the loss of step `step`; `arrange` builds the params argument
    (a list, or param groups) from a copy; `hyper` goes to both constructors. Returns the
    solution's optimizer and its parameters."""
    tolerance = {k: hyper.pop(k) for k in ("atol", "rtol") if k in hyper}
    mine, theirs = copies(params), copies(params)
    opt = need(solution, "AdamW")(arrange(mine), **hyper)
    ref = reference(arrange(theirs), foreach=False, **hyper)
    for step in range(steps):
        for ps, o in ((mine, opt), (theirs, ref)):
            o.zero_grad()
            loss(ps, step).backward()
            o.step()
        check(mine, theirs, f"{what}, after step {step + 1}", **tolerance)
    return opt, mine


@TESTS.test("one step from a fresh state, default hyperparameters, equals torch.optim.AdamW's"
            " (bias correction; 3 seeds)",
            hint="follow the docstring in its order: p *= 1 - lr * weight_decay first; m and v"
                 " start at zero, so divide them by 1 - beta1**t and 1 - beta2**t, t = 1 on the"
                 " first step; eps goes outside the square root. The defaults are lr=1e-3,"
                 " betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2")
def test_first_step(solution):
    for seed in SEEDS:
        side_by_side(solution, mlp(seed), 1, lambda ps, s, seed=seed: mlp_loss(ps, s, seed),
                     f"seed {seed}")


@TESTS.test("20 steps of a small MLP equal torch.optim.AdamW's after every step (3 seeds,"
            " lr=1e-2)",
            hint="keep m and v for each parameter from step to step: m = beta1 m + (1 - beta1) g,"
                 " v = beta2 v + (1 - beta2) g * g, and t counts the parameter's steps")
def test_many_steps(solution):
    for seed in SEEDS:
        side_by_side(solution, mlp(seed), 20, lambda ps, s, seed=seed: mlp_loss(ps, s, seed),
                     f"seed {seed}", lr=1e-2)


@TESTS.test("weight_decay=0.5, lr=0.05: the parameter is scaled by 1 - lr * weight_decay, not"
            " given an L2 gradient (10 steps)",
            hint="decoupled weight decay: multiply p by (1 - lr * weight_decay) before the Adam"
                 " update, and leave the gradient alone; adding weight_decay * p to the gradient"
                 " is torch.optim.Adam's L2 penalty, which m and v then rescale")
def test_weight_decay_decoupled(solution):
    for seed in SEEDS[:2]:
        def loss(ps, step, seed=seed):
            return mlp_loss(ps, step, seed)

        try:
            side_by_side(solution, mlp(seed), 10, loss, f"seed {seed}", lr=0.05, weight_decay=0.5)
        except Wrong as wrong:
            try:  # say so when it is exactly Adam's L2 penalty
                side_by_side(solution, mlp(seed), 10, loss, "", reference=torch.optim.Adam,
                             lr=0.05, weight_decay=0.5)
            except Wrong:
                raise wrong from None
            raise Wrong(f"{wrong}; these are torch.optim.Adam(weight_decay=0.5)'s parameters: the"
                        " decay went into the gradient (L2)") from None


@TESTS.test("weight_decay=0 with betas=(0.8, 0.99), eps=1e-6, lr=0.03: no decay at all, and the"
            " given betas and eps (15 steps)",
            hint="read lr, betas, eps and weight_decay from the param group at every step, not"
                 " from constants")
def test_no_weight_decay(solution):
    side_by_side(solution, mlp(3), 15, lambda ps, s: mlp_loss(ps, s, 3), "seed 3", lr=0.03,
                 betas=(0.8, 0.99), eps=1e-6, weight_decay=0.0)


@TESTS.test("two param groups: lr=0.03, weight_decay=0.2 for the first layer; the second takes"
            " the constructor's lr=1e-3, weight_decay=0.05 (10 steps)",
            hint="loop over self.param_groups and use each group's own lr and weight_decay; the"
                 " base class fills a group's missing keys from the defaults you pass it")
def test_param_groups(solution):
    def arrange(ps):
        return [{"params": ps[:2], "lr": 0.03, "weight_decay": 0.2}, {"params": ps[2:]}]

    side_by_side(solution, mlp(4), 10, lambda ps, s: mlp_loss(ps, s, 4), "seed 4",
                 arrange=arrange, lr=1e-3, weight_decay=0.05)


@TESTS.test("a parameter whose grad is None is left exactly as it is, even with weight decay;"
            " after zero_grad() every grad is None and step() changes nothing",
            hint="skip a parameter whose p.grad is None before anything else, weight decay"
                 " included; torch.optim.Optimizer.zero_grad() sets grads to None, so keep it")
def test_grad_none_skipped(solution):
    params = [*mlp(5), torch.linspace(-1, 1, 5, dtype=torch.float64).requires_grad_()]
    opt, mine = side_by_side(solution, params, 5, lambda ps, s: mlp_loss(ps, s, 5),
                             "seed 5 (parameter 4 never gets a gradient)", lr=1e-2, weight_decay=0.1)
    if mine[4].grad is not None:
        raise Wrong("parameter 4 is in no loss, so its grad should stay None")
    expect_tensor(mine[4], params[4], "parameter 4 (never a gradient) after 5 steps with"
                  " weight_decay=0.1", atol=0, rtol=0)
    opt.zero_grad()
    if any(p.grad is not None for p in mine):
        raise Wrong("after zero_grad() every grad should be None (torch.optim.Optimizer's"
                    " zero_grad, set_to_none=True)")
    before = copies(mine)
    opt.step()
    check(mine, before, "step() right after zero_grad()", atol=0, rtol=0)


@TESTS.test("a parameter that first gets a gradient at step 4 starts its own count: t = 1 for"
            " its bias correction (8 steps)",
            hint="keep the step count in each parameter's state, created at its first gradient,"
                 " not one counter for the whole optimizer")
def test_per_param_step(solution):
    def loss(ps, step):
        if step < 3:  # the output layer has no gradient yet: its grad stays None
            w1, b1 = ps[:2]
            return (torch.tanh(torch.ones(2, 4, dtype=w1.dtype) @ w1.T + b1) ** 2).mean()
        return mlp_loss(ps, step, 6)

    side_by_side(solution, mlp(6), 8, loss, "seed 6", lr=1e-2)


@TESTS.test("state_dict() and load_state_dict() carry the state: 5 steps, a new optimizer loads"
            " it, and 5 more steps equal 10 of torch's",
            hint="keep m, v and the step count in self.state[p]: torch.optim.Optimizer saves and"
                 " loads self.state, and nothing kept in attributes of your own")
def test_state_dict_round_trip(solution):
    params = mlp(7)
    hyper = dict(lr=1e-2, weight_decay=0.1)
    first, mine = side_by_side(solution, params, 5, lambda ps, s: mlp_loss(ps, s, 7), "seed 7",
                               **hyper)
    resumed = copies(mine)
    second = need(solution, "AdamW")(resumed, **hyper)
    second.load_state_dict(first.state_dict())
    theirs = copies(params)
    ref = torch.optim.AdamW(theirs, foreach=False, **hyper)
    for step in range(10):
        ref.zero_grad()
        mlp_loss(theirs, step, 7).backward()
        ref.step()
        if step >= 5:
            second.zero_grad()
            mlp_loss(resumed, step, 7).backward()
            second.step()
            check(resumed, theirs, f"resumed after step 5, at step {step + 1}")


@TESTS.test("step(closure) runs the closure with gradients enabled and returns its loss;"
            " step() returns None",
            hint="call the closure inside torch.enable_grad() (step itself runs under"
                 " torch.no_grad()), keep what it returns and return it at the end")
def test_closure(solution):
    mine, theirs = mlp(8), mlp(8)
    opt = need(solution, "AdamW")(mine, lr=1e-2)
    ref = torch.optim.AdamW(theirs, lr=1e-2, foreach=False)
    for step in range(3):
        def closure(ps=mine, step=step):
            if not torch.is_grad_enabled():
                raise Wrong("step() called the closure with gradients disabled, so its"
                            " backward() cannot run (torch.is_grad_enabled() was False)")
            opt.zero_grad()
            out = mlp_loss(ps, step, 8)
            out.backward()
            return out

        loss = opt.step(closure)
        expected = float(mlp_loss(theirs, step, 8).detach())
        if not isinstance(loss, torch.Tensor) or float(loss.detach()) != expected:
            raise Wrong(f"step(closure) at step {step + 1}: expected the closure's loss, got"
                        f" {loss!r}")
        ref.zero_grad()
        mlp_loss(theirs, step, 8).backward()
        ref.step()
        check(mine, theirs, f"step(closure), after step {step + 1}")
    opt.zero_grad()
    mlp_loss(mine, 3, 8).backward()
    returned = opt.step()
    if returned is not None:
        raise Wrong(f"step() without a closure: expected None, got {returned!r}")


@TESTS.test("float32 parameters stay float32 and match (5 steps); a 0-dim and a (1,) parameter,"
            " batch 1, gradients scaled by 1e6 (float64)",
            hint="update in place under torch.no_grad() (p.mul_, p.addcdiv_), with m and v made by"
                 " torch.zeros_like(p), so they have p's shape and dtype")
def test_dtypes_and_edges(solution):
    side_by_side(solution, mlp(9, torch.float32), 5, lambda ps, s: mlp_loss(ps, s, 9),
                 "float32, seed 9", lr=1e-2, atol=1e-6, rtol=1e-5)
    g = torch.Generator().manual_seed(10)
    params = [torch.randn((), generator=g, dtype=torch.float64).requires_grad_(),
              torch.randn(1, generator=g, dtype=torch.float64).requires_grad_()]

    def loss(ps, step):
        x = torch.randn(1, generator=torch.Generator().manual_seed(step), dtype=torch.float64)
        return 1e6 * ((ps[0] * x + ps[1] - 2 * x) ** 2).sum()

    side_by_side(solution, params, 5, loss, "0-dim and (1,), batch 1, gradients near 1e6",
                 lr=1e-2)


@TESTS.test("gradients near 1e-9, where eps matters: eps is added to sqrt(v / (1 - beta2**t))"
            " (10 steps)",
            hint="the denominator is sqrt(v_hat) + eps, with v_hat = v / (1 - beta2**t): eps goes"
                 " outside the square root and after the bias correction")
def test_tiny_gradients(solution):
    for seed in SEEDS[:2]:
        side_by_side(solution, mlp(seed), 10,
                     lambda ps, s, seed=seed: mlp_loss(ps, s, seed, scale=1e-9),
                     f"loss scaled by 1e-9, seed {seed}", lr=1e-2)
