"""The judge of dpo-loss. torch has no DPO loss, so the judge writes the formula in float64:
margin = (pc - rc) - (pr - rr), loss = mean(-F.logsigmoid(beta * margin)), rewards
beta * (p - r) with no graph; and sequence_logps as log_softmax in float64 gathered at the labels
and summed over the masked positions. Values and gradients are compared with these on several
seeds, betas and shapes; margins of -1000 to +1000; reference log-probs given with
requires_grad=True must get no gradient; padding labels of -100; a row with no response token."""

import math

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("dpo-loss")
SEEDS = (0, 1, 2)


def logps(b, seed, dtype=torch.float64, scale=20.0):
    """Four (B,) summed log-probabilities: policy chosen, policy rejected, ref chosen, ref
    rejected (negative, as real ones are)."""
    g = torch.Generator().manual_seed(seed)
    base = -torch.rand(4, b, generator=g, dtype=torch.float64) * 100.0
    return [(base[i] + torch.randn(b, generator=g, dtype=torch.float64) * scale * (i < 2)).to(dtype)
            for i in range(4)]


def plain(x):
    """x without its graph, for comparing values (a tensor that requires grad makes float() warn)."""
    return x.detach() if isinstance(x, torch.Tensor) else x


def ref_dpo(pc, pr, rc, rr, beta):
    pc, pr = pc.double(), pr.double()  # the graph is kept: policy_grads differentiates this
    rc, rr = rc.detach().double(), rr.detach().double()
    margin = (pc - rc) - (pr - rr)
    return (-F.logsigmoid(beta * margin).mean(), (beta * (pc - rc)).detach(),
            (beta * (pr - rr)).detach())


def call_dpo(solution, inputs, beta=None):
    fn = need(solution, "dpo_loss")
    out = fn(*inputs) if beta is None else fn(*inputs, beta=beta)
    if not isinstance(out, tuple) or len(out) != 3:
        raise Wrong("dpo_loss must return a tuple (loss, chosen_rewards, rejected_rewards), got "
                    + type(out).__name__ + (f" of length {len(out)}" if isinstance(out, tuple) else ""))
    return out


def compare_dpo(solution, inputs, what, beta=None, atol=1e-10, rtol=1e-10):
    loss, chosen, rejected = call_dpo(solution, inputs, beta)
    expected = ref_dpo(*inputs, 0.1 if beta is None else beta)
    ref_loss, ref_chosen, ref_rejected = (plain(x) for x in expected)
    dtype = inputs[0].dtype
    expect_tensor(plain(loss), ref_loss.to(dtype), f"{what}: loss", atol=atol, rtol=rtol)
    expect_tensor(plain(chosen), ref_chosen.to(dtype), f"{what}: chosen_rewards", atol=atol,
                  rtol=rtol)
    expect_tensor(plain(rejected), ref_rejected.to(dtype), f"{what}: rejected_rewards", atol=atol,
                  rtol=rtol)


def policy_grads(solution, inputs, beta, what, atol=1e-12, rtol=1e-8):
    """The gradients of the two policy inputs against the reference formula's."""
    mine = [t.detach().clone().requires_grad_() for t in inputs[:2]]
    loss = call_dpo(solution, mine + [t.detach() for t in inputs[2:]], beta)[0]
    if not isinstance(loss, torch.Tensor) or loss.grad_fn is None:
        raise Wrong(f"{what}: the loss has no grad_fn: autograd cannot reach the policy log-probs")
    got = torch.autograd.grad(loss, mine, allow_unused=True)
    theirs_in = [t.detach().double().requires_grad_() for t in inputs[:2]]
    expected = torch.autograd.grad(ref_dpo(*theirs_in, *inputs[2:], beta)[0], theirs_in)
    for name, a, b in zip(("policy_chosen_logps", "policy_rejected_logps"), got, expected,
                          strict=True):
        if a is None:
            raise Wrong(f"{what}: no gradient reaches {name}")
        if not bool(torch.isfinite(a).all()):
            raise Wrong(f"{what}: the gradient of {name} holds inf or NaN: {a.tolist()}")
        expect_tensor(a, b.to(a.dtype), f"{what}: the gradient of {name}", atol=atol, rtol=rtol)


def batch(b, t, v, seed, dtype=torch.float64, scale=1.0, pad=True):
    """logits (B, T, V), labels (B, T), mask (B, T): each row a prompt of masked positions, then
    a response, then right padding (when pad)."""
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(b, t, v, generator=g, dtype=torch.float64) * scale).to(dtype)
    labels = torch.randint(0, v, (b, t), generator=g)
    mask = torch.ones(b, t, dtype=torch.bool)
    if pad:
        for row in range(b):
            start = int(torch.randint(0, t // 2, (1,), generator=g))
            end = int(torch.randint(start + 1, t + 1, (1,), generator=g))
            mask[row, :start] = False
            mask[row, end:] = False
    return logits, labels, mask


def ref_seq(logits, labels, mask):
    logp = torch.log_softmax(logits.detach().double(), dim=-1)
    out = torch.zeros(logits.shape[0], dtype=torch.float64)
    for b in range(logits.shape[0]):
        for t in range(logits.shape[1]):
            if mask[b, t]:
                out[b] += logp[b, t, labels[b, t]]
    return out


def compare_seq(solution, logits, labels, mask, what, atol=1e-10, rtol=1e-10, grad=False):
    leaf = logits.detach().clone().requires_grad_(grad)
    got = need(solution, "sequence_logps")(leaf, labels, mask)
    expect_tensor(plain(got), ref_seq(logits, labels, mask).to(logits.dtype),
                  f"{what}: sequence_logps",
                  atol=atol, rtol=rtol)
    if grad:
        if got.grad_fn is None:
            raise Wrong(f"{what}: sequence_logps has no grad_fn: autograd cannot reach logits")
        upstream = torch.randn(logits.shape[0], generator=torch.Generator().manual_seed(3),
                               dtype=logits.dtype)
        (mine,) = torch.autograd.grad((got * upstream).sum(), leaf)
        ref_in = logits.detach().double().requires_grad_()
        logp = torch.log_softmax(ref_in, dim=-1).gather(-1, labels.clamp(min=0).unsqueeze(-1))
        (theirs,) = torch.autograd.grad(((logp.squeeze(-1) * mask).sum(-1) * upstream.double()).sum(),
                                        ref_in)
        expect_tensor(mine, theirs.to(logits.dtype), f"{what}: the gradient of logits",
                      atol=atol, rtol=rtol)


@TESTS.test("dpo_loss returns a 0-dim loss and (B,) rewards, sequence_logps (B,), all in the"
            " inputs' dtype (float32 and float64)",
            hint="the loss is a mean over the pairs (no keepdim, no .item()); the rewards keep"
                 " one value per pair; sequence_logps sums over dim 1 (time)")
def test_shapes_and_dtypes(solution):
    for dtype in (torch.float32, torch.float64):
        out = call_dpo(solution, logps(4, 0, dtype))
        for name, got, shape in zip(("loss", "chosen_rewards", "rejected_rewards"), out,
                                    ((), (4,), (4,)), strict=True):
            if not isinstance(got, torch.Tensor) or tuple(got.shape) != shape or got.dtype != dtype:
                raise Wrong(f"{dtype} inputs of B = 4: {name} should be {shape} {dtype}, got "
                            + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                               else type(got).__name__))
        got = need(solution, "sequence_logps")(*batch(3, 5, 7, 0, dtype))
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != (3,) or got.dtype != dtype:
            raise Wrong(f"sequence_logps of {dtype} logits (3, 5, 7) should be (3,) {dtype}, got "
                        + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))


@TESTS.test("the loss is mean(-logsigmoid(beta * ((pc - rc) - (pr - rr)))) with the default beta"
            " 0.1 (float64, 3 seeds, B = 4 and 16; float32 to 1e-5)",
            hint="the margin is the policy's log-ratio on the chosen response minus its log-ratio on"
                 " the rejected one, each against the reference; the chosen one must win, so the"
                 " loss falls as the margin grows; average over the pairs")
def test_loss_values(solution):
    for seed in SEEDS:
        for b in (4, 16):
            compare_dpo(solution, logps(b, seed), f"seed {seed}, B {b}")
            compare_dpo(solution, logps(b, seed, torch.float32), f"float32, seed {seed}, B {b}",
                        atol=1e-5, rtol=1e-5)


@TESTS.test("beta is the argument and multiplies the margin inside logsigmoid (beta 0.01, 0.5,"
            " 1 and 5)",
            hint="beta scales the margin before logsigmoid, not the loss after it; and use the beta"
                 " you are given, 0.1 is only its default")
def test_beta_argument(solution):
    for beta in (0.01, 0.5, 1.0, 5.0):
        for seed in SEEDS:
            compare_dpo(solution, logps(8, seed), f"beta {beta}, seed {seed}", beta=beta)


@TESTS.test("the rewards are beta * (policy - reference) per pair, detached (no grad_fn) even"
            " when the inputs require grad",
            hint="return (beta * (pc - rc)).detach() and the same for the rejected: they are for"
                 " logging, and a graph kept on them holds the policy's activations alive")
def test_rewards(solution):
    for beta in (0.1, 0.5):
        inputs = [t.requires_grad_() for t in logps(6, 1)]
        compare_dpo(solution, inputs, f"beta {beta}", beta=beta)
        _, chosen, rejected = call_dpo(solution, inputs, beta)
        for name, got in (("chosen_rewards", chosen), ("rejected_rewards", rejected)):
            if got.requires_grad or got.grad_fn is not None:
                raise Wrong(f"{name} is attached to the graph (requires_grad {got.requires_grad},"
                            f" grad_fn {type(got.grad_fn).__name__}): detach it")


@TESTS.test("large margins stay finite: margin -100 with beta 0.1 gives 10.0000454; beta *"
            " margin = -200 (float32) and -1000 (float64) give 200 and 1000, +1000 gives 0, with"
            " finite gradients",
            hint="log(sigmoid(x)) is log(0) = -inf once sigmoid(x) underflows to 0 (by x = -104 in"
                 " float32, -746 in float64): use F.logsigmoid(x), or -F.softplus(-x)")
def test_large_margins(solution):
    expected_10 = 10.0 + math.log1p(math.exp(-10.0))
    cases = (([-100.0], 0.1, torch.float64, expected_10), ([-400.0], 0.5, torch.float32, 200.0),
             ([-1000.0, -2000.0], 1.0, torch.float64, 1500.0), ([1000.0], 1.0, torch.float64, 0.0),
             ([-1000.0], 0.3, torch.float32, 300.0))
    for margins, beta, dtype, expected in cases:
        b = len(margins)
        pc = torch.full((b,), -50.0, dtype=dtype)
        pr = pc - torch.tensor(margins, dtype=dtype)  # rc = rr: the margin is pc - pr
        rc = rr = torch.full((b,), -60.0, dtype=dtype)
        what = f"margins {margins}, beta {beta}, {dtype}"
        loss = call_dpo(solution, [pc, pr, rc, rr], beta)[0]
        expect_tensor(plain(loss), torch.tensor(expected, dtype=dtype), f"{what}: loss", atol=1e-5,
                      rtol=1e-6)
        policy_grads(solution, [pc, pr, rc, rr], beta, what, atol=1e-7, rtol=1e-6)


@TESTS.test("the gradients of the two policy inputs equal the reference's (float64, 3 seeds,"
            " beta 0.1 and 1)",
            hint="build the loss from differentiable torch ops on the policy log-probs: no"
                 " .detach(), .item() or torch.no_grad() on them")
def test_policy_gradients(solution):
    for seed in SEEDS:
        for beta in (0.1, 1.0):
            policy_grads(solution, logps(8, seed), beta, f"seed {seed}, beta {beta}")


@TESTS.test("the reference log-probs are constants: given with requires_grad=True, they get no"
            " gradient (None or zeros)",
            hint="the reference model is frozen: detach ref_chosen_logps and ref_rejected_logps"
                 " before using them")
def test_reference_constant(solution):
    for seed in SEEDS:
        inputs = [t.requires_grad_() for t in logps(8, seed)]
        loss = call_dpo(solution, inputs, 0.1)[0]
        if not isinstance(loss, torch.Tensor) or loss.grad_fn is None:
            raise Wrong("the loss has no grad_fn")
        grads = torch.autograd.grad(loss, inputs[2:], allow_unused=True)
        for name, g in zip(("ref_chosen_logps", "ref_rejected_logps"), grads, strict=True):
            if g is not None and bool((g != 0).any()):
                raise Wrong(f"seed {seed}: the loss sends {name} a gradient"
                            f" {[round(v, 5) for v in g.tolist()]}; it should get none")


@TESTS.test("a batch of one pair (B = 1), and sequence_logps of one sequence of one token",
            hint="nothing special-cased: the mean over one pair is that pair's loss")
def test_batch_one(solution):
    for seed in SEEDS:
        compare_dpo(solution, logps(1, seed), f"B 1, seed {seed}")
        policy_grads(solution, logps(1, seed), 0.1, f"B 1, seed {seed}")
        compare_seq(solution, *batch(1, 1, 5, seed, pad=False), f"(1, 1, 5), seed {seed}")


@TESTS.test("sequence_logps sums log_softmax at the labels over every position when the mask is"
            " all True, with the reference's gradient (float64, 3 seeds; float32 to 1e-5)",
            hint="log_softmax over V (dim -1), gather at labels (already aligned: no shift), then a"
                 " SUM over T of the log-probabilities, not of the probabilities, and not a mean")
def test_sequence_logps_values(solution):
    for seed in SEEDS:
        for shape in ((2, 6, 11), (3, 9, 32)):
            compare_seq(solution, *batch(*shape, seed, pad=False), f"{shape}, seed {seed}",
                        grad=True)
            compare_seq(solution, *batch(*shape, seed, torch.float32, pad=False),
                        f"float32 {shape}, seed {seed}", atol=1e-5, rtol=1e-5)


@TESTS.test("masked positions (prompt and padding) add nothing, nor gradient; a row with no True"
            " position gives 0 (labels there are valid token ids)",
            hint="multiply the gathered log-probabilities by the mask (or index with it) before"
                 " summing over T")
def test_padding_masked(solution):
    for seed in SEEDS:
        logits, labels, mask = batch(4, 10, 13, seed)
        mask[2] = False  # no response token at all
        compare_seq(solution, logits, labels, mask, f"prompt and padding masked, seed {seed}",
                    grad=True)


@TESTS.test("labels of -100 where the mask is False are not used as indices",
            hint="gather with labels where the mask is True and any valid id (0) elsewhere, e.g."
                 " torch.where(mask, labels, 0), then zero those positions")
def test_ignore_index_labels(solution):
    for seed in SEEDS:
        logits, labels, mask = batch(4, 10, 13, seed)
        labels = torch.where(mask, labels, torch.full_like(labels, -100))
        compare_seq(solution, logits, labels, mask, f"-100 at masked positions, seed {seed}",
                    grad=True)


@TESTS.test("logits of randn times 1e3 give finite log-probabilities equal to the reference's"
            " (float32 and float64)",
            hint="log(softmax(x)) is log(0) = -inf when a probability underflows: use"
                 " torch.log_softmax, which subtracts logsumexp")
def test_sequence_logps_large_logits(solution):
    for seed in SEEDS:
        compare_seq(solution, *batch(2, 6, 9, seed, scale=1e3), f"float64 times 1e3, seed {seed}",
                    atol=1e-8, rtol=1e-10)
        compare_seq(solution, *batch(2, 6, 9, seed, torch.float32, scale=1e3),
                    f"float32 times 1e3, seed {seed}", atol=1e-2, rtol=1e-5)
