"""The judge of cross-entropy-from-scratch: values and gradients against F.cross_entropy (mean
reduction) on several seeds and shapes, in float32 and float64: logits of 1000, ignore_index (the
default -100 and a valid class), label smoothing with and without ignored targets, and a batch
whose every target is ignored (F.cross_entropy gives NaN there, and a gradient of zeros)."""

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("cross-entropy-from-scratch")
SEEDS = (0, 1, 2)
SHAPES = ((4, 5), (7, 3), (16, 10))


def batch(n, c, seed, dtype=torch.float32, scale=1.0, ignored=0.0, ignore_index=-100):
    """Logits (N, C) and targets (N,); a share `ignored` of the targets set to ignore_index."""
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(n, c, generator=g, dtype=dtype) * scale
    target = torch.randint(0, c, (n,), generator=g)
    if ignored:
        drop = torch.rand(n, generator=g) < ignored
        drop[0] = False  # at least one target is kept
        target = torch.where(drop, torch.full_like(target, ignore_index), target)
    return logits, target


def compare(solution, logits, target, what, ignore_index=-100, label_smoothing=0.0,
            atol=1e-6, rtol=1e-6):
    got = need(solution, "cross_entropy")(logits, target, ignore_index=ignore_index,
                                          label_smoothing=label_smoothing)
    expected = F.cross_entropy(logits, target, ignore_index=ignore_index,
                               label_smoothing=label_smoothing)
    expect_tensor(got, expected, what, atol=atol, rtol=rtol)


def gradients(solution, logits, target, ignore_index=-100, label_smoothing=0.0):
    """The gradient of logits from the solution's loss and from F.cross_entropy's."""
    mine_in = logits.detach().clone().requires_grad_()
    got = need(solution, "cross_entropy")(mine_in, target, ignore_index=ignore_index,
                                          label_smoothing=label_smoothing)
    if not isinstance(got, torch.Tensor) or got.grad_fn is None:
        raise Wrong("the loss has no grad_fn: autograd cannot reach logits")
    (mine,) = torch.autograd.grad(got, mine_in, allow_unused=True)
    if mine is None:
        raise Wrong("no gradient reaches logits")
    theirs_in = logits.detach().clone().requires_grad_()
    loss = F.cross_entropy(theirs_in, target, ignore_index=ignore_index,
                           label_smoothing=label_smoothing)
    (theirs,) = torch.autograd.grad(loss, theirs_in)
    return mine, theirs


@TESTS.test("returns a 0-dim tensor in logits' dtype, float32 and float64",
            hint="the loss is one number: sum the per-sample losses and divide, with no keepdim"
                 " and no .item()")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        logits, target = batch(4, 5, 0, dtype)
        got = need(solution, "cross_entropy")(logits, target)
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != () or got.dtype != dtype:
            raise Wrong(f"for logits (4, 5) in {dtype}: expected a 0-dim {dtype} tensor, got "
                        + (f"shape {tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))


@TESTS.test("equals F.cross_entropy (3 seeds, 3 shapes, float32 and float64)",
            hint="the loss of one sample is logsumexp of its row minus the logit of its target"
                 " class; the result is the mean over the samples")
def test_matches_torch(solution):
    for dtype in (torch.float32, torch.float64):
        for n, c in SHAPES:
            for seed in SEEDS:
                compare(solution, *batch(n, c, seed, dtype), f"({n}, {c}) {dtype}, seed {seed}")


@TESTS.test("logits of 1000: rows [1000, 999, 998] and [1000, 0, -1000], and randn times 1000,"
            " stay finite and exact",
            hint="exp(1000) overflows, and a probability of exp(-2000) underflows to 0: subtract"
                 " each row's max before exp, and take log-probabilities as logits - logsumexp,"
                 " never log(softmax)")
def test_large_logits(solution):
    # float32 holds 1000 to within 6.1e-5 (its spacing there): allow a few of those steps.
    atol = {torch.float32: 2e-4, torch.float64: 1e-9}
    for dtype in (torch.float32, torch.float64):
        for row in ([1000.0, 999.0, 998.0], [1000.0, 0.0, -1000.0]):
            for cls in range(3):
                compare(solution, torch.tensor([row], dtype=dtype), torch.tensor([cls]),
                        f"logits {[int(x) for x in row]}, target {cls}, {dtype}", atol=atol[dtype],
                        rtol=1e-6)
        for seed in SEEDS:
            compare(solution, *batch(6, 5, seed, dtype, scale=1000.0),
                    f"randn (6, 5) times 1000, {dtype}, seed {seed}", atol=atol[dtype], rtol=1e-6)


@TESTS.test("ignored targets add nothing and the mean is over the kept ones (ignore_index -100"
            " and 0)",
            hint="keep = target != ignore_index; average over keep.sum() samples, not N; and use"
                 " the ignore_index argument, which may be a valid class such as 0")
def test_ignore_index(solution):
    for dtype in (torch.float32, torch.float64):
        for n, c in SHAPES:
            for seed in SEEDS:
                compare(solution, *batch(n, c, seed, dtype, ignored=0.4),
                        f"({n}, {c}) {dtype}, seed {seed}, 40% of targets -100")
    for seed in SEEDS:
        logits, target = batch(12, 6, seed)  # class 0 is a kept class unless ignore_index=0
        if not bool((target == 0).any()):
            target[1] = 0
        compare(solution, logits, target, f"ignore_index=0 (a padding class), seed {seed}",
                ignore_index=0)


@TESTS.test("label_smoothing 0.05, 0.1, 0.5 and 1.0 equals F.cross_entropy's (float64)",
            hint="the smoothed target is (1 - eps) on the class plus eps / C on every class, its"
                 " own included: (1 - eps) * nll + eps * mean over the classes of -log p")
def test_label_smoothing(solution):
    for eps in (0.05, 0.1, 0.5, 1.0):
        for n, c in SHAPES:
            for seed in SEEDS:
                compare(solution, *batch(n, c, seed, torch.float64),
                        f"label_smoothing={eps}, ({n}, {c}), seed {seed}", label_smoothing=eps,
                        atol=1e-10, rtol=1e-10)
    compare(solution, *batch(8, 5, 0), "label_smoothing=0.1 in float32", label_smoothing=0.1)


@TESTS.test("label smoothing with ignored targets: ignored rows add no smoothing term either",
            hint="the smoothing term of an ignored sample must be dropped like its nll, and both"
                 " terms averaged over the kept samples")
def test_label_smoothing_ignore_index(solution):
    for eps in (0.1, 0.3):
        for seed in SEEDS:
            compare(solution, *batch(10, 6, seed, torch.float64, ignored=0.4),
                    f"label_smoothing={eps}, 40% of targets -100, seed {seed}",
                    label_smoothing=eps, atol=1e-10, rtol=1e-10)
        logits, target = batch(10, 6, 3, torch.float64)
        compare(solution, logits, target, f"label_smoothing={eps}, ignore_index=2",
                ignore_index=2, label_smoothing=eps, atol=1e-10, rtol=1e-10)


@TESTS.test("every target ignored: NaN (0 / 0) as F.cross_entropy gives, and a zero gradient",
            hint="F.cross_entropy returns NaN here but its gradient is zeros; drop the ignored"
                 " samples with torch.where (or by indexing), not by multiplying by the mask:"
                 " the mean's 1 / 0 then meets 0 * inf = NaN in the backward")
def test_all_ignored(solution):
    for eps in (0.0, 0.1):
        for dtype in (torch.float32, torch.float64):
            logits, _ = batch(4, 5, 0, dtype)
            target = torch.full((4,), -100)
            compare(solution, logits, target, f"all 4 targets -100, label_smoothing={eps},"
                    f" {dtype}", label_smoothing=eps)
        mine, theirs = gradients(solution, batch(4, 5, 1, torch.float64)[0],
                                 torch.full((4,), -100), label_smoothing=eps)
        expect_tensor(mine, theirs, f"the gradient of logits, all targets -100,"
                      f" label_smoothing={eps}", atol=0, rtol=0)


@TESTS.test("one sample (N = 1) and one class (C = 1, where the loss is 0)",
            hint="with one class the log-probability is log 1 = 0; with one sample the mean is"
                 " that sample's loss")
def test_edge_sizes(solution):
    for eps in (0.0, 0.2):
        compare(solution, *batch(1, 5, 0), f"N = 1, label_smoothing={eps}", label_smoothing=eps)
        compare(solution, *batch(6, 1, 0), f"C = 1, label_smoothing={eps}", label_smoothing=eps)
        compare(solution, *batch(1, 1, 0), f"N = C = 1, label_smoothing={eps}",
                label_smoothing=eps)


@TESTS.test("the gradient of logits equals F.cross_entropy's (float64, with ignored targets and"
            " smoothing, and at logits of 1000)",
            hint="build the loss from differentiable torch ops on logits: no .item(), .detach() of"
                 " the result, .numpy() or in-place writes into logits")
def test_gradients(solution):
    cases = [(0.0, 0.0, 1.0), (0.3, 0.0, 1.0), (0.3, 0.1, 1.0), (0.0, 0.1, 1000.0)]
    for ignored, eps, scale in cases:
        for seed in SEEDS:
            logits, target = batch(8, 6, seed, torch.float64, scale=scale, ignored=ignored)
            mine, theirs = gradients(solution, logits, target, label_smoothing=eps)
            expect_tensor(mine, theirs, f"the gradient of logits ({ignored:.0%} ignored,"
                          f" label_smoothing={eps}, logits times {scale:g}, seed {seed})",
                          atol=1e-12, rtol=1e-9)
