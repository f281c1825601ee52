"""The judge of top-p-sampling. torch has no top-p function, so the judge counts each row's
nucleus itself, slowly and plainly: softmax in float64 with the math module, the probabilities
sorted in Python, summed until they reach p. Every p the judge uses lies at least 2e-5 from every
cumulative sum of the rows it is used on (checked here), so float32 rounding in a solution cannot
decide the answer. Where tied logits straddle the edge, any choice of the right size passes."""

import math

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("top-p-sampling")
SEEDS = (0, 1, 2)
MARGIN = 2e-5
NEG = float("-inf")


def make(b, v, seed, dtype=torch.float32, scale=1.0, offset=0.0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, v, generator=g, dtype=dtype) * scale + offset


def nucleus_size(row, p):
    """How many tokens the nucleus of one row holds (a list of floats), counted in float64."""
    if p >= 1.0:
        return len(row)
    top = max(row)
    exps = [math.exp(x - top) for x in row]
    total = math.fsum(exps)
    reached, size = 0.0, 0
    for prob in sorted((e / total for e in exps), reverse=True):
        size += 1
        reached += prob
        if abs(reached - p) < MARGIN:
            raise RuntimeError(f"judge data: p = {p} is within {MARGIN} of a cumulative sum")
        if reached >= p:
            break
    return size


def tokens(n):
    return f"{n} token" + ("" if n == 1 else "s")


def expected_output(logits, got, p):
    """The tensor the solution should return, and a note on the first row whose kept set is
    wrong ('' when every row is right). Where ties make several sets right, the solution's own
    choice is taken when it is one of them."""
    rows = logits.detach().double().tolist()
    kept = got.detach() != NEG if (isinstance(got, torch.Tensor) and got.shape == logits.shape) else None
    mask = torch.zeros(logits.shape, dtype=torch.bool)
    note = ""
    for r, row in enumerate(rows):
        size = nucleus_size(row, p)
        by_value = sorted(range(len(row)), key=lambda i: -row[i])  # stable: ties by position
        edge = row[by_value[size - 1]]  # the smallest logit in the nucleus
        canonical = torch.zeros(len(row), dtype=torch.bool)
        canonical[by_value[:size]] = True
        if kept is not None:
            mine = kept[r]
            values = torch.tensor(row, dtype=torch.float64)
            if (int(mine.sum()) == size and bool(mine[values > edge].all())
                    and bool((values[mine] >= edge).all())):
                canonical = mine.clone()  # a right choice among tied logits
            elif not note:
                count = int(mine.sum())
                note = (f"row {r} keeps {tokens(count)}, its nucleus has {size}" if count != size
                        else f"row {r} keeps {tokens(count)}, not the "
                        + ("most likely one" if size == 1 else f"{size} most likely"))
        mask[r] = canonical
    return logits.detach().masked_fill(~mask, NEG), note


def check(solution, logits, p, what):
    original = logits.clone()  # the expected output is of the logits as they were passed
    got = need(solution, "top_p_filter")(logits, p)
    expected, note = expected_output(original, got, p)
    expect_tensor(got, expected, f"{what}, p = {p}" + (f" ({note})" if note else ""), atol=0, rtol=0)
    return got


@TESTS.test("returns a new (B, V) tensor in logits' dtype, float32 and float64",
            hint="mask the logits (masked_fill or torch.where) and return that: same shape, same"
                 " dtype, -inf outside the nucleus")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        logits = make(3, 10, 0, dtype)
        got = need(solution, "top_p_filter")(logits, 0.9)
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != (3, 10) or got.dtype != dtype:
            raise Wrong(f"for logits (3, 10) {dtype}: expected a (3, 10) {dtype} tensor, got "
                        + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))


@TESTS.test("keeps exactly the nucleus, values unchanged, -inf elsewhere (3 seeds, V = 10 to 1000,"
            " p = 0.5 and 0.9, float32 and float64)",
            hint="softmax each row, sort the probabilities in descending order, take the cumulative"
                 " sum, and keep tokens until the sum reaches p")
def test_matches_nucleus(solution):
    for seed in SEEDS:
        for b, v, dtype in ((4, 10, torch.float32), (3, 100, torch.float64), (2, 1000, torch.float32)):
            for p in (0.5, 0.9):
                check(solution, make(b, v, seed, dtype, scale=2.0), p,
                      f"seed {seed}, ({b}, {v}) {dtype}")


@TESTS.test("the most likely tokens anywhere in the row: logits in ascending order, and shuffled",
            hint="the sort tells you which tokens to keep in sorted order; write that mask back to"
                 " the tokens' own positions (scatter with the sort's indices) before masking")
def test_unsorted(solution):
    ascending = make(2, 12, 3).sort(dim=-1).values
    check(solution, ascending, 0.8, "each row sorted ascending: the nucleus is at the end")
    shuffled = ascending[:, torch.randperm(12, generator=torch.Generator().manual_seed(4))]
    check(solution, shuffled, 0.8, "the same rows shuffled")


@TESTS.test("the token whose probability makes the sum reach p is kept (p just above and just"
            " below a cumulative sum)",
            hint="keep a token when the probability of the tokens before it is still below p:"
                 " shift the cumulative sum right by one, or subtract the token's own probability")
def test_boundary_included(solution):
    probs = torch.tensor([[0.05, 0.4, 0.1, 0.25, 0.2]], dtype=torch.float64)
    logits = probs.log()  # sorted: 0.4, 0.25, 0.2, 0.1, 0.05; cumulative 0.4, 0.65, 0.85, 0.95, 1
    for p in (0.39, 0.41, 0.64, 0.66, 0.84, 0.86, 0.94, 0.96):
        check(solution, logits, p, "probabilities 0.05, 0.4, 0.1, 0.25, 0.2")
    check(solution, logits.float(), 0.66, "the same in float32")


@TESTS.test("the most likely token is always kept: a tiny p keeps it alone, and a row of one"
            " token (B = 1, V = 1) keeps it",
            hint="the first token in sorted order has no probability before it: it is kept for"
                 " any p > 0")
def test_always_one(solution):
    for seed in SEEDS:
        logits = make(3, 50, seed)
        for p in (1e-6, 0.01):
            check(solution, logits, p, f"seed {seed}")
    single = make(1, 1, 0)
    for p in (1e-6, 0.5, 1.0):
        check(solution, single, p, "B = 1, V = 1")


@TESTS.test("p = 1.0 keeps every token, also in peaked rows whose tail is below rounding",
            hint="in a peaked row the cumulative sum rounds to 1.0 before the last token, so a"
                 " comparison with p = 1 drops the tail; treat p >= 1 as keeping everything")
def test_p_one(solution):
    # The top token's probability is exactly 1.0 in float32 (1 + e^-30 rounds to 1), the others
    # are positive: the cumulative sum is 1.0 from the first token on.
    row = torch.tensor([[-30.0, 0.0, -31.0, -35.0, -32.0, -33.0, -34.0, -36.0]])
    check(solution, row, 1.0, "logits 0 and -30 to -36, float32")
    check(solution, row.double() * 2, 1.0, "logits 0 and -60 to -72, float64")
    for seed in SEEDS:
        for scale in (1.0, 10.0):
            check(solution, make(4, 200, seed, scale=scale), 1.0, f"seed {seed}, logits x {scale}")


@TESTS.test("batch rows of different peakedness get nuclei of different sizes",
            hint="each row has its own cumulative sum and its own cut: no single k or threshold"
                 " for the whole batch")
def test_rows_differ(solution):
    for seed in SEEDS:
        scales = torch.tensor([[0.3], [1.0], [3.0], [8.0]])
        check(solution, make(4, 64, seed) * scales, 0.9, f"seed {seed}, rows x 0.3, 1, 3, 8")


@TESTS.test("tied logits at the edge: the set kept stays the smallest (any of the tied may be in it)",
            hint="the nucleus is a count of tokens: keep the first ones of the sorted order, not"
                 " every token whose logit is at least the last kept one's")
def test_ties(solution):
    # probabilities in proportion to e^3, e, e, e, 1, 1, 1/e: cumulative 0.656, 0.745, 0.834, 0.923,
    # 0.955, 0.988, 1; p = 0.7 and 0.8 cut inside the three 1s, p = 0.94 between the two 0s
    row = torch.tensor([[1.0, 0.0, 3.0, 1.0, -1.0, 1.0, 0.0]])
    for p in (0.7, 0.8, 0.94):
        check(solution, row, p, "logits 1, 0, 3, 1, -1, 1, 0")
        check(solution, row.double().repeat(2, 1), p, "the same row twice, float64")


@TESTS.test("logits near +1000 and -1000 (and spread by 20) stay exact: no NaN, no overflow",
            hint="exp(1000) overflows: subtract each row's max before exp, or use torch.softmax,"
                 " which passes this test")
def test_large_logits(solution):
    offsets = torch.tensor([[1000.0], [-1000.0], [0.0]])
    for seed in SEEDS:
        logits = make(3, 40, seed, scale=3.0) + offsets
        check(solution, logits, 0.9, f"seed {seed}, rows offset by 1000, -1000, 0")
        check(solution, make(2, 40, seed, scale=20.0), 0.9, f"seed {seed}, logits x 20")


@TESTS.test("logits is left as it was: no in-place masking of the input",
            hint="masked_fill (no underscore) and torch.where return a new tensor; logits[mask] ="
                 " -inf writes into the caller's logits")
def test_not_in_place(solution):
    logits = make(3, 30, 1)
    before = logits.clone()
    need(solution, "top_p_filter")(logits, 0.5)
    expect_tensor(logits, before, "logits after the call (the input)", atol=0, rtol=0)


@TESTS.test("gradients reach the kept logits and equal those of the judge's masked_fill, float64",
            hint="build the output from differentiable ops on logits (masked_fill, torch.where,"
                 " scatter); no torch.no_grad, .detach(), .item() or .numpy() on the logits")
def test_gradients(solution):
    for seed in SEEDS:
        leaf = make(3, 20, seed, torch.float64).requires_grad_()
        got = need(solution, "top_p_filter")(leaf, 0.8)
        if not isinstance(got, torch.Tensor) or got.grad_fn is None:
            raise Wrong("the output has no grad_fn: autograd cannot reach the logits")
        expected, note = expected_output(make(3, 20, seed, torch.float64), got, 0.8)
        if note:
            raise Wrong(f"seed {seed}: the kept set is wrong ({note}), so the gradients are too")
        weights = torch.randn(got.shape, generator=torch.Generator().manual_seed(5), dtype=got.dtype)
        mine, = torch.autograd.grad((torch.softmax(got, dim=-1) * weights).sum(), leaf)
        ref = leaf.detach().clone().requires_grad_()
        out = ref.masked_fill(expected == NEG, NEG)
        theirs, = torch.autograd.grad((torch.softmax(out, dim=-1) * weights).sum(), ref)
        expect_tensor(mine, theirs, f"seed {seed}: the gradient of the logits", atol=1e-10, rtol=1e-8)
