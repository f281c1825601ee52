"""The judge of speculative-decoding. The step is random and the contract leaves the order of the
random draws to the solution, so the judge checks distributions by counting. For each trial it
draws the K draft tokens itself, draft_tokens[i] from p_draft[i] (its own generator), calls the
step with one generator seeded once per test, and counts. Each frequency must lie within 5
standard errors, sqrt(p (1 - p) / n), of its exact value, plus one count: a correct solution
misses that band on a given count with probability about 6e-7, whatever random numbers it draws,
and the mistakes miss it by several times the band. The exact values: the token emitted at
position i, among the trials that reached it, is distributed as p_target[i]; draft i is accepted
with probability a_i = sum over x of min(p_draft[i, x], p_target[i, x]), so n - 1 = j tokens are
accepted with probability a_0 ... a_(j-1) (1 - a_j), and all K with a_0 ... a_(K-1)."""

import math

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("speculative-decoding")
Z = 5.0  # standard errors allowed

# K = 3, V = 5; the draft is far from the target: a = 0.45, 0.8, 0.6
FAR_DRAFT = [[0.10, 0.10, 0.40, 0.20, 0.20],
             [0.30, 0.30, 0.20, 0.10, 0.10],
             [0.20, 0.20, 0.20, 0.20, 0.20]]
FAR_TARGET = [[0.50, 0.25, 0.10, 0.10, 0.05],
              [0.10, 0.40, 0.30, 0.10, 0.10],
              [0.05, 0.05, 0.10, 0.30, 0.50],
              [0.60, 0.10, 0.10, 0.10, 0.10]]


def tensors(draft, target, dtype=torch.float64):
    return torch.tensor(draft, dtype=dtype), torch.tensor(target, dtype=dtype)


def random_probs(rows, v, seed, dtype=torch.float64, zeros=0):
    """Rows of softmax(randn * 1.5); `zeros` entries of each row set to 0 and renormalised."""
    g = torch.Generator().manual_seed(seed)
    p = torch.softmax(torch.randn(rows, v, generator=g, dtype=torch.float64) * 1.5, dim=-1)
    if zeros:
        p[:, :zeros] = 0.0
        p = p / p.sum(dim=-1, keepdim=True)
    return p.to(dtype)


def accept_rates(p_draft, p_target):
    k = p_draft.shape[0]
    return [float(torch.minimum(p_draft[i].double(), p_target[i].double()).sum()) for i in range(k)]


def run(solution, p_draft, p_target, n, seed, what):
    """n trials: the judge draws the drafts, the solution's step runs with one generator. Returns
    the drafts (n, K) and the outputs, each checked to be a 1-D int64 tensor of length 1 to K + 1
    whose first n - 1 tokens are the drafted ones."""
    step = need(solution, "speculative_step")
    k, v = p_draft.shape
    drafts = torch.multinomial(p_draft.double(), n, replacement=True,
                               generator=torch.Generator().manual_seed(500 + seed)).T.contiguous()
    g = torch.Generator().manual_seed(900 + seed)
    outputs = []
    for t in range(n):
        got = step(p_draft, p_target, drafts[t].clone(), g)
        if not isinstance(got, torch.Tensor):
            raise Wrong(f"{what}: returned {type(got).__name__}, expected a 1-D int64 tensor")
        if got.dim() != 1 or got.dtype != torch.int64 or not 1 <= got.numel() <= k + 1:
            raise Wrong(f"{what}: expected a 1-D torch.int64 tensor of length 1 to {k + 1},"
                        f" got shape {tuple(got.shape)} {got.dtype}")
        if bool(((got < 0) | (got >= v)).any()):
            raise Wrong(f"{what}: a token outside [0, {v}): {got.tolist()}")
        if not torch.equal(got[:-1], drafts[t, :got.numel() - 1]):
            raise Wrong(f"{what}: output {got.tolist()} does not start with the accepted drafted"
                        f" tokens: the drafts were {drafts[t].tolist()}")
        outputs.append(got.tolist())
    return drafts, outputs


def expect_frequencies(counts, n, probs, what, labels):
    """Raise Wrong on the count furthest outside Z standard errors (plus one count)."""
    worst = None
    for j, (c, p) in enumerate(zip(counts, probs)):
        if p == 0.0:
            if c:
                raise Wrong(f"{what}: {labels[j]} came {c} times in {n}, its probability is 0")
            continue
        allowed = Z * math.sqrt(p * (1 - p) / n) + 1 / n
        off = abs(c / n - p) / allowed
        if off > 1 and (worst is None or off > worst[0]):
            worst = (off, j, c / n, p, allowed)
    if worst is not None:
        _, j, freq, p, allowed = worst
        raise Wrong(f"{what}: {labels[j]} has frequency {freq:.3f} over {n}, expected {p:.3f}"
                    f" (allowed +- {allowed:.3f}, {Z:g} standard errors; the furthest off)")


def position_counts(outputs, i, v):
    """How often each token is emitted at position i, over the trials that reached it."""
    counts = [0] * v
    for out in outputs:
        if len(out) > i:
            counts[out[i]] += 1
    return counts


def token_labels(v):
    return [f"token {x}" for x in range(v)]


@TESTS.test("returns a 1-D int64 tensor of length 1 to K + 1 that starts with the accepted drafts,"
            " float32 and float64, K = 1 to 4; the inputs are not modified",
            hint="collect the accepted tokens and the final one in a list and return"
                 " torch.tensor(tokens, dtype=torch.int64)")
def test_output_form(solution):
    for seed, (k, v, dtype) in enumerate(((1, 6, torch.float32), (3, 8, torch.float64),
                                          (4, 5, torch.float32))):
        p_draft, p_target = random_probs(k, v, seed, dtype), random_probs(k + 1, v, 10 + seed, dtype)
        before = (p_draft.clone(), p_target.clone())
        run(solution, p_draft, p_target, 100, seed, f"K = {k}, V = {v}, {dtype}")
        expect_tensor(p_draft, before[0], "p_draft after the calls", atol=0, rtol=0)
        expect_tensor(p_target, before[1], "p_target after the calls", atol=0, rtol=0)


@TESTS.test("the first emitted token is distributed as p_target[0], with the draft far from the"
            " target (3,000 steps, within 5 standard errors)",
            hint="accept with probability min(1, p_target / p_draft) at the drafted token; on a"
                 " rejection draw from max(0, p_target[i] - p_draft[i]), normalised, not from"
                 " p_target[i]: the accepted drafts already supplied min(p_draft, p_target)")
def test_first_token(solution):
    p_draft, p_target = tensors(FAR_DRAFT, FAR_TARGET)
    _, outputs = run(solution, p_draft, p_target, 3000, 1, "far draft")
    expect_frequencies(position_counts(outputs, 0, 5), 3000, p_target[0].tolist(),
                       "the first emitted token", token_labels(5))


@TESTS.test("draft i is accepted with probability sum_x min(p_draft[i, x], p_target[i, x]), and the"
            " output lengths follow (a = 0.45, 0.8, 0.6; 2,000 steps)",
            hint="stop at the first rejection, and when all K drafts are accepted append the bonus"
                 " token: n - 1 accepted tokens give an output of length n")
def test_lengths(solution):
    p_draft, p_target = tensors(FAR_DRAFT, FAR_TARGET)
    _, outputs = run(solution, p_draft, p_target, 2000, 2, "far draft")
    a = accept_rates(p_draft, p_target)
    k = len(a)
    probs = []
    for j in range(k + 1):  # j drafts accepted: length j + 1
        p = math.prod(a[:j]) * (1 - a[j] if j < k else 1.0)
        probs.append(p)
    counts = [sum(len(out) == j + 1 for out in outputs) for j in range(k + 1)]
    expect_frequencies(counts, 2000, probs, "the output length",
                       [f"length {j + 1}" for j in range(k + 1)])


@TESTS.test("the token emitted at each position 1 to K, among the steps that reach it, is"
            " distributed as p_target at that position (K = 3, position 3 is the bonus; 3,000 steps)",
            hint="position i uses row i of both tensors, for the ratio and the residual; the bonus"
                 " comes from p_target[K], the row after the last draft")
def test_later_positions(solution):
    p_draft, p_target = tensors(FAR_DRAFT, FAR_TARGET)
    _, outputs = run(solution, p_draft, p_target, 3000, 3, "far draft")
    for i in range(1, 4):
        counts = position_counts(outputs, i, 5)
        reached = sum(counts)
        if reached == 0:
            raise Wrong(f"no step emitted a token at position {i} in 3000 steps")
        expect_frequencies(counts, reached, p_target[i].tolist(),
                           f"the token at position {i} ({reached} steps reached it)", token_labels(5))


@TESTS.test("with p_draft equal to p_target's first K rows every draft is accepted and the bonus is"
            " drawn from p_target[K] (K = 2 and 4, 1,000 steps each)",
            hint="the acceptance probability is min(1, ratio) and the ratio is 1 here: no draft may be"
                 " rejected; then draw the bonus token from the last row of p_target")
def test_identical(solution):
    for seed, (k, v) in enumerate(((2, 6), (4, 5))):
        p_target = random_probs(k + 1, v, 20 + seed)
        p_draft = p_target[:k].clone()
        drafts, outputs = run(solution, p_draft, p_target, 1000, 4 + seed, f"K = {k}, same rows")
        short = next((t for t, out in enumerate(outputs) if len(out) != k + 1), None)
        if short is not None:
            raise Wrong(f"K = {k}, p_draft == p_target[:K]: step {short} returned"
                        f" {outputs[short]} for drafts {drafts[short].tolist()}, expected all {k}"
                        " drafts and a bonus token")
        expect_frequencies(position_counts(outputs, k, v), 1000, p_target[k].tolist(),
                           f"K = {k}, the bonus token", token_labels(v))


@TESTS.test("a draft the target gives probability 0 is always rejected, and no emitted token has"
            " target probability 0 at its position (1,000 steps)",
            hint="the acceptance probability is p_target / p_draft, 0 here; and the residual"
                 " max(0, p_target - p_draft) is 0 wherever p_target is")
def test_zero_target(solution):
    k, v = 2, 6
    p_draft = random_probs(k, v, 30)
    p_target = random_probs(k + 1, v, 31, zeros=2)  # tokens 0 and 1 impossible for the target
    drafts, outputs = run(solution, p_draft, p_target, 1000, 6, "target zero on tokens 0 and 1")
    for t, out in enumerate(outputs):
        for i, token in enumerate(out):
            if float(p_target[i, token]) == 0.0:
                raise Wrong(f"step {t}: drafts {drafts[t].tolist()}, output {out}: token {token} at"
                            f" position {i}, where p_target gives it probability 0")


@TESTS.test("all randomness comes from the generator: the same seed gives the same outputs whatever"
            " the global seed, and generator=None uses the global one",
            hint="pass generator=generator to every torch.rand and torch.multinomial; do not draw"
                 " from the global generator or reseed it")
def test_generator(solution):
    step = need(solution, "speculative_step")
    p_draft, p_target = tensors(FAR_DRAFT, FAR_TARGET)
    drafts = torch.multinomial(p_draft, 100, replacement=True,
                               generator=torch.Generator().manual_seed(7)).T.contiguous()

    def outputs(seed, global_seed):
        torch.manual_seed(global_seed)
        g = None if seed is None else torch.Generator().manual_seed(seed)
        return [step(p_draft, p_target, d.clone(), g).tolist() for d in drafts]

    first, second = outputs(11, 1), outputs(11, 2)
    if first != second:
        t = next(t for t in range(100) if first[t] != second[t])
        raise Wrong(f"generator seed 11: step {t} gave {first[t]} under global seed 1 and"
                    f" {second[t]} under global seed 2")
    if outputs(12, 1) == first:
        raise Wrong("generator seeds 11 and 12 gave the same 100 outputs: the generator's draws do"
                    " not reach the result")
    if outputs(None, 3) != outputs(None, 3):
        raise Wrong("generator None: two runs after torch.manual_seed(3) gave different outputs")


@TESTS.test("a draft whose target probability is at least the draft's is always accepted: drafts"
            " chosen so at every position, every step returns them all and a bonus (500 steps)",
            hint="the acceptance probability is min(1, p_target / p_draft), not p_target alone: a"
                 " ratio of 1 or more accepts for certain")
def test_always_accept_when_target_higher(solution):
    step = need(solution, "speculative_step")
    k, v = 3, 6
    p_draft = random_probs(k, v, 40)
    p_target = random_probs(k + 1, v, 41)
    higher = p_target[:k] >= p_draft
    drafts = torch.stack([row.nonzero()[0] for row in higher]).squeeze(-1)  # first such token per row
    g = torch.Generator().manual_seed(8)
    for t in range(500):
        got = step(p_draft, p_target, drafts.clone(), g)
        if not isinstance(got, torch.Tensor) or got.numel() != k + 1 or not torch.equal(got[:k], drafts):
            shown = got.tolist() if isinstance(got, torch.Tensor) else got
            raise Wrong(f"step {t}: drafts {drafts.tolist()}, each with p_target >= p_draft"
                        f" (ratios {[round(float(p_target[i, x] / p_draft[i, x]), 2) for i, x in enumerate(drafts.tolist())]}),"
                        f" returned {shown}: expected all {k} drafts and a bonus token")
