"""The judge of moe-router. torch has no router function, so the judge writes the clearest form
of the contract in float64: probs = softmax over all E, the top-k of probs, those probabilities
divided by their sum, f = bincount of the T * k chosen ids / (T * k) (a count, no gradient),
P = the mean of probs over the tokens, aux_loss = E * sum(f * P). Values and the gradients of
logits through weights and through aux_loss are compared with this reference, on several seeds,
k = 1 and 2, E = 4 and 8. Where probabilities tie (uniform logits, or logits of 1e4 whose
smaller probabilities round to 0), any choice among the tied experts passes: the judge checks
the probabilities of the chosen experts, not their ids."""

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("moe-router")
SEEDS = (0, 1, 2)
CASES = ((16, 4, 1), (16, 4, 2), (24, 8, 1), (24, 8, 2))  # (T, E, k)


def make(t, e, seed, dtype=torch.float64, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(t, e, generator=g, dtype=torch.float64) * scale).to(dtype)


def reference(logits, k, experts=None):
    """(weights, experts, aux_loss, probs) in float64, written as plainly as the contract. Given
    `experts` (a solution's choice, already checked to be a top-k), the reference routes to those:
    where probabilities tie, the contract accepts any of the tied experts, and f follows the
    choice."""
    x = logits.double()
    t, e = x.shape
    probs = torch.softmax(x, dim=-1)
    if experts is None:
        top_probs, experts = torch.topk(probs, k, dim=-1)
    else:
        top_probs = probs.gather(1, experts)
    weights = top_probs / top_probs.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts.reshape(-1), minlength=e).double() / (t * k)
    P = probs.mean(dim=0)
    return weights, experts, e * (f * P).sum(), probs


def call(solution, logits, k):
    out = need(solution, "route")(logits, k)
    if not isinstance(out, tuple) or len(out) != 3:
        raise Wrong(f"route must return a tuple (weights, experts, aux_loss), got "
                    f"{type(out).__name__}" + (f" of length {len(out)}" if isinstance(out, tuple) else ""))
    return out


def check_experts(experts, probs, k, what, atol=1e-6):
    """experts (T, k) int64, distinct in each row, and their probabilities are the k largest,
    the largest first (so that ties may be broken either way)."""
    t, e = probs.shape
    if not isinstance(experts, torch.Tensor):
        raise Wrong(f"{what}: experts is not a tensor but {type(experts).__name__}")
    if tuple(experts.shape) != (t, k) or experts.dtype != torch.int64:
        raise Wrong(f"{what}: experts must be ({t}, {k}) int64, got {tuple(experts.shape)}"
                    f" {experts.dtype}")
    if bool(((experts < 0) | (experts >= e)).any()):
        raise Wrong(f"{what}: experts holds ids outside [0, {e})")
    for row in range(t):
        ids = experts[row].tolist()
        if len(set(ids)) != k:
            raise Wrong(f"{what}: token {row} is sent to the same expert twice: {ids}")
    chosen = probs.gather(1, experts)
    top = torch.topk(probs, k, dim=-1).values
    close = torch.isclose(chosen, top, rtol=1e-6, atol=atol)
    if not bool(close.all()):
        row = int((~close).any(dim=1).nonzero()[0])
        raise Wrong(f"{what}: token {row} gets experts {experts[row].tolist()} with probabilities"
                    f" {[round(v, 4) for v in chosen[row].tolist()]}; its {k} most probable are"
                    f" {torch.topk(probs[row], k).indices.tolist()} with"
                    f" {[round(v, 4) for v in top[row].tolist()]}")


def check_all(solution, logits, k, what, atol=1e-10, rtol=1e-10):
    weights, experts, aux = call(solution, logits, k)
    for name, got in (("weights", weights), ("aux_loss", aux)):
        if isinstance(got, torch.Tensor) and not bool(torch.isfinite(got.detach()).all()):
            raise Wrong(f"{what}: {name} holds inf or NaN: {got.detach().reshape(-1)[:4].tolist()}")
    check_experts(experts, reference(logits, k)[3], k, what)
    ref_w, _, ref_aux, _ = reference(logits, k, experts)
    dtype = logits.dtype
    expect_tensor(weights, ref_w.to(dtype), f"{what}: weights", atol=atol, rtol=rtol)
    expect_tensor(aux, ref_aux.to(dtype), f"{what}: aux_loss", atol=atol, rtol=rtol)
    return weights, experts, aux


def grads(solution, logits, k, which, seed=7):
    """The gradient of logits from the solution and from the reference, through `which`
    ("weights": a random weighted sum of the weights, or "aux": aux_loss)."""
    mine_in = logits.detach().clone().requires_grad_()
    weights, experts, aux = call(solution, mine_in, k)
    out = weights if which == "weights" else aux
    if not isinstance(out, torch.Tensor) or out.grad_fn is None:
        raise Wrong(f"{'weights' if which == 'weights' else 'aux_loss'} has no grad_fn:"
                    " autograd cannot reach logits")
    # One upstream value per (token, expert), picked by the expert in each slot: the scalar is
    # the same whichever order tied experts come in.
    upstream = torch.randn(logits.shape, generator=torch.Generator().manual_seed(seed),
                           dtype=torch.float64)
    check_experts(experts, reference(logits, k)[3], k, "the routing")
    if which == "weights":
        picked = upstream.to(out.dtype).gather(1, experts)
        (mine,) = torch.autograd.grad((out * picked).sum(), mine_in, allow_unused=True)
    else:
        (mine,) = torch.autograd.grad(out, mine_in, allow_unused=True)
    if mine is None:
        raise Wrong("no gradient reaches logits")
    ref_in = logits.detach().double().requires_grad_()
    ref_w, ref_experts, ref_aux, _ = reference(ref_in, k, experts)
    target = (ref_w * upstream.gather(1, ref_experts)).sum() if which == "weights" else ref_aux
    (theirs,) = torch.autograd.grad(target, ref_in)
    return mine, theirs


@TESTS.test("returns (weights, experts, aux_loss): (T, k) in logits' dtype, (T, k) int64 and a"
            " 0-dim tensor in logits' dtype, for float32 and float64",
            hint="return the three as a tuple; experts are the indices torch.topk gives (int64),"
                 " and aux_loss is one number: sum over the experts, no keepdim, no .item()")
def test_shapes_and_dtypes(solution):
    for dtype in (torch.float32, torch.float64):
        for t, e, k in CASES:
            weights, experts, aux = call(solution, make(t, e, 0, dtype), k)
            for name, got, shape, want in (("weights", weights, (t, k), dtype),
                                           ("experts", experts, (t, k), torch.int64),
                                           ("aux_loss", aux, (), dtype)):
                if not isinstance(got, torch.Tensor) or tuple(got.shape) != shape or got.dtype != want:
                    raise Wrong(f"logits ({t}, {e}) {dtype}, k = {k}: {name} should be {shape}"
                                f" {want}, got " + (f"{tuple(got.shape)} {got.dtype}"
                                                    if isinstance(got, torch.Tensor)
                                                    else type(got).__name__))


@TESTS.test("experts are each token's k most probable, the most probable first (3 seeds, k = 1"
            " and 2, E = 4 and 8)",
            hint="torch.topk(probs, k, dim=-1) gives the values and the indices, largest first;"
                 " topk of the logits picks the same experts, since softmax keeps the order")
def test_experts_top_k(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            logits = make(t, e, seed)
            _, experts, _ = call(solution, logits, k)
            check_experts(experts, reference(logits, k)[3], k, f"seed {seed}, T {t}, E {e}, k {k}")


@TESTS.test("weights are the chosen probabilities renormalised to sum to 1 per token (float64,"
            " to 1e-10)",
            hint="softmax over ALL E experts, take the top k of it, then divide those k by their"
                 " sum; with k = 1 every weight is 1.0")
def test_weights_renormalised(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            logits = make(t, e, seed)
            weights, experts, _ = call(solution, logits, k)
            ref_w, _, _, probs = reference(logits, k)
            what = f"seed {seed}, T {t}, E {e}, k {k}"
            check_experts(experts, probs, k, what)
            expect_tensor(weights, ref_w, f"{what}: weights", atol=1e-10, rtol=1e-10)


@TESTS.test("aux_loss = E * sum_e f_e * P_e equals the reference (float64, 3 seeds, k = 1 and 2,"
            " E = 4 and 8)",
            hint="f_e counts expert e among ALL T * k entries of experts, divided by T * k; P_e is"
                 " the mean over the tokens of the FULL softmax's column e; multiply by E")
def test_aux_loss_values(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            logits = make(t, e, seed)
            _, _, aux = call(solution, logits, k)
            expect_tensor(aux, reference(logits, k)[2], f"seed {seed}, T {t}, E {e}, k {k}:"
                          " aux_loss", atol=1e-10, rtol=1e-10)


@TESTS.test("uniform logits (perfect balance) give aux_loss == 1.0, for k = 1 and 2, E = 4 and 8",
            hint="with every probability 1/E, aux_loss = E * sum_e f_e / E = sum_e f_e, which is 1"
                 " only if f sums to 1 (divide the counts by T * k) and the factor E is there")
def test_uniform_logits(solution):
    for t, e, k in CASES:
        for value in (0.0, 3.5):
            logits = torch.full((t, e), value, dtype=torch.float64)
            _, experts, aux = call(solution, logits, k)
            check_experts(experts, reference(logits, k)[3], k, f"uniform logits ({t}, {e}), k {k}")
            expect_tensor(aux, torch.tensor(1.0, dtype=torch.float64),
                          f"uniform logits {value} ({t}, {e}), k {k}: aux_loss", atol=1e-12, rtol=0)


@TESTS.test("every token routed to the same experts: aux_loss == E * P of those experts (mean"
            " over them), e.g. E * P_0 for k = 1",
            hint="when all T tokens pick expert 0, f = (1, 0, ..., 0) and aux_loss = E * P_0,"
                 " with P_0 the mean of the full softmax's column 0 (not the weights)")
def test_one_expert(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            logits = make(t, e, seed)
            logits[:, 0] += 6.0  # expert 0 is every token's first choice
            if k == 2:
                logits[:, 1] += 4.0  # and expert 1 every token's second
            probs = torch.softmax(logits, dim=-1)
            expected = e * probs[:, :k].mean(dim=0).sum() / k  # f_0 = f_1 = 1/k
            _, experts, aux = call(solution, logits, k)
            check_experts(experts, probs, k, f"seed {seed}, E {e}, k {k}, all to expert 0")
            expect_tensor(aux, expected, f"seed {seed}, T {t}, E {e}, k {k}, every token to"
                          f" expert{'s 0 and 1' if k == 2 else ' 0'}: aux_loss", atol=1e-10,
                          rtol=1e-10)


@TESTS.test("the gradient of logits through weights equals the reference's (float64, 3 seeds, k"
            " = 1 and 2, E = 4 and 8)",
            hint="build weights from differentiable torch ops on the softmax: gather or topk the"
                 " probabilities and divide by their sum, without .detach() or torch.no_grad()")
def test_weights_gradient(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            mine, theirs = grads(solution, make(t, e, seed), k, "weights", seed=seed + 10)
            expect_tensor(mine, theirs, f"seed {seed}, T {t}, E {e}, k {k}: the gradient of"
                          " logits through weights", atol=1e-10, rtol=1e-8)


@TESTS.test("the gradient of logits through aux_loss equals the reference's, in which f is a"
            " count with no gradient (float64, 3 seeds, k = 1 and 2, E = 4 and 8)",
            hint="the gradient flows through P (the mean of the full softmax) only: f counts"
                 " integer ids, so build it from experts (bincount, one_hot, scatter_add), not"
                 " from probabilities; and do not detach P")
def test_aux_loss_gradient(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            mine, theirs = grads(solution, make(t, e, seed), k, "aux")
            expect_tensor(mine, theirs, f"seed {seed}, T {t}, E {e}, k {k}: the gradient of"
                          " logits through aux_loss", atol=1e-10, rtol=1e-8)


@TESTS.test("logits of 1e4 (randn times 1e4, and a row [1e4, -1e4, ...]) give no inf or NaN,"
            " the reference's values, and finite gradients",
            hint="exp(1e4) overflows: use torch.softmax (or subtract each row's max before exp);"
                 " the smaller probabilities then round to 0, which is right")
def test_large_logits(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            check_all(solution, make(t, e, seed, scale=1e4), k,
                      f"seed {seed}, T {t}, E {e}, k {k}, logits times 1e4")
    row = torch.tensor([[1e4, -1e4, 0.0, 5e3]], dtype=torch.float64)
    check_all(solution, row, 2, "logits [1e4, -1e4, 0, 5e3], k 2")
    for which in ("weights", "aux"):
        mine, theirs = grads(solution, make(8, 4, 0, scale=1e4), 2, which)
        expect_tensor(mine, theirs, f"logits times 1e4, k 2: the gradient through {which}",
                      atol=1e-10, rtol=1e-8)


@TESTS.test("one token (T = 1), k = 1, 2 and k = E",
            hint="nothing special-cased: f has T * k = k entries and P is the one token's softmax")
def test_single_token(solution):
    for e in (4, 8):
        for k in (1, 2, e):
            check_all(solution, make(1, e, e + k), k, f"T 1, E {e}, k {k}")


@TESTS.test("float32 logits: float32 results equal to the float64 reference within 1e-5",
            hint="compute in logits' dtype (or in float64 and cast back): weights and aux_loss"
                 " come back in float32")
def test_float32(solution):
    for seed in SEEDS:
        for t, e, k in CASES:
            check_all(solution, make(t, e, seed, torch.float32), k,
                      f"float32, seed {seed}, T {t}, E {e}, k {k}", atol=1e-5, rtol=1e-5)
