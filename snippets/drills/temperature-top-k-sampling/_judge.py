"""The judge of temperature-top-k-sampling. filter_logits is deterministic and is checked against
a float64 reference written here (divide, find the k-th largest in sorted order, keep every token
at least that large). sample is random, so it is judged by counting: each distinct row is repeated
many times in one batch, and the frequency of each token over its draws must lie within 5 standard
errors, sqrt(p (1 - p) / n), of p = softmax(the reference's filtered row) in float64, plus one
count. A correct sampler misses that band on a given token with probability about 6e-7 whatever
random numbers it draws, so any correct solution passes; the mistakes miss it by many times the
band. Tokens outside the kept set must never be drawn. The data are randn rows, on which no two
scaled logits of a row are close enough for float32 rounding to decide the kept set."""

import math

import torch
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("temperature-top-k-sampling")
SEEDS = (0, 1, 2)
NEG = float("-inf")
Z = 5.0  # standard errors allowed


def make(b, v, seed, dtype=torch.float32, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, v, generator=g, dtype=dtype) * scale


def gen(seed):
    return torch.Generator().manual_seed(1000 + seed)


def reference_filter(logits, temperature, top_k):
    """What filter_logits must return, in float64."""
    scaled = logits.detach().double() / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.sort(dim=-1, descending=True).values[:, top_k - 1:top_k]
    return scaled.masked_fill(scaled < kth, NEG)


def setting(temperature, top_k):
    return f"temperature {temperature}, top_k {top_k}"


def tokens_of(solution, logits, temperature, top_k, generator, what):
    """Call sample and check the result is a (B,) int64 tensor of tokens in [0, V)."""
    got = need(solution, "sample")(logits, temperature=temperature, top_k=top_k, generator=generator)
    b, v = logits.shape
    if not isinstance(got, torch.Tensor):
        raise Wrong(f"{what}: sample returned {type(got).__name__}, expected a tensor")
    if tuple(got.shape) != (b,) or got.dtype != torch.int64:
        raise Wrong(f"{what}: expected a ({b},) torch.int64 tensor, got {tuple(got.shape)} {got.dtype}")
    if bool(((got < 0) | (got >= v)).any()):
        raise Wrong(f"{what}: a token outside [0, {v})")
    return got


def check_counts(solution, rows, temperature, top_k, n, generator, what):
    """Draw n tokens for each of the R rows (the rows interleaved in one batch of R * n) and
    compare each row's token frequencies with softmax(reference_filter(row))."""
    r, v = rows.shape
    batch = rows.repeat(n, 1)  # row i of the batch is rows[i % r]
    got = tokens_of(solution, batch, temperature, top_k, generator, what)
    expected = torch.softmax(reference_filter(rows, temperature, top_k), dim=-1)
    worst = None  # (how many allowed bands off, row, token, frequency, p, allowed)
    for row in range(r):
        counts = torch.bincount(got[row::r], minlength=v).double()
        for token in range(v):
            p = float(expected[row, token])
            if p == 0.0:
                if counts[token] > 0:
                    raise Wrong(f"{what}: row {row} drew token {token} {int(counts[token])} times in {n}"
                                " draws, but it is outside the kept set (probability 0)")
                continue
            freq = float(counts[token]) / n
            allowed = Z * math.sqrt(p * (1 - p) / n) + 1 / n
            off = abs(freq - p) / allowed
            if off > 1 and (worst is None or off > worst[0]):
                worst = (off, row, token, freq, p, allowed)
    if worst is not None:
        _, row, token, freq, p, allowed = worst
        raise Wrong(f"{what}: row {row}, token {token} drawn with frequency {freq:.3f} in {n} draws;"
                    f" softmax of the filtered logits gives {p:.3f} (allowed +- {allowed:.3f},"
                    f" {Z:g} standard errors; the token furthest off)")


@TESTS.test("filter_logits returns a new (B, V) tensor in logits' dtype and sample a (B,) int64"
            " tensor, float32 and float64; neither writes into logits",
            hint="torch.multinomial(probs, 1) is (B, 1): squeeze the last dimension; divide with"
                 " logits / temperature (not /=) and mask with masked_fill (no underscore)")
def test_shape_and_dtype(solution):
    for dtype in (torch.float32, torch.float64):
        logits = make(3, 10, 0, dtype)
        before = logits.clone()
        got = need(solution, "filter_logits")(logits, 0.7, 4)
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != (3, 10) or got.dtype != dtype:
            raise Wrong(f"filter_logits on (3, 10) {dtype}: expected a (3, 10) {dtype} tensor, got "
                        + (f"{tuple(got.shape)} {got.dtype}" if isinstance(got, torch.Tensor)
                           else type(got).__name__))
        for temperature in (0.0, 0.7):
            tokens_of(solution, logits, temperature, 4, gen(0), f"(3, 10) {dtype}, temperature {temperature}")
        expect_tensor(logits, before, f"logits ({dtype}) after the calls", atol=0, rtol=0)


@TESTS.test("filter_logits equals logits / temperature with -inf outside the top k, against float64"
            " (3 seeds, V = 10 to 500, temperature 0.5 to 2, top_k None, 1, 5, V - 1)",
            hint="divide by the temperature, take the k-th largest of each row with topk(k).values[:, -1:]"
                 " (keepdim for broadcasting), and set every logit below it to -inf")
def test_filter_values(solution):
    for seed in SEEDS:
        for b, v, dtype in ((4, 10, torch.float32), (3, 100, torch.float64), (2, 500, torch.float32)):
            logits = make(b, v, seed, dtype, scale=2.0)
            for temperature in (0.5, 1.0, 2.0):
                for top_k in (None, 1, 5, v - 1):
                    got = need(solution, "filter_logits")(logits, temperature, top_k)
                    expected = reference_filter(logits, temperature, top_k).to(dtype)
                    expect_tensor(got, expected, f"seed {seed}, ({b}, {v}) {dtype}, "
                                  + setting(temperature, top_k), atol=1e-6, rtol=1e-5)


@TESTS.test("filter_logits keeps every token tied at the k-th largest value (the contract's rule)",
            hint="compare with the k-th largest value (logits < kth is masked) instead of keeping the k"
                 " indices topk returns: topk picks some of the tied tokens and drops the others")
def test_filter_ties(solution):
    row = torch.tensor([[1.0, 0.0, 3.0, 1.0, -1.0, 1.0, 0.0]])  # sorted: 3, 1, 1, 1, 0, 0, -1
    for top_k in (2, 3, 5):
        for temperature in (1.0, 0.5):
            got = need(solution, "filter_logits")(row, temperature, top_k)
            expected = reference_filter(row, temperature, top_k).float()
            kept = int((expected != NEG).sum())
            expect_tensor(got, expected, f"logits 1, 0, 3, 1, -1, 1, 0, {setting(temperature, top_k)}"
                          f" ({kept} tokens kept)", atol=1e-6, rtol=1e-5)


@TESTS.test("temperature 0 is greedy: the argmax of each row, the lowest index among ties, for any"
            " top_k, also with logits of 1e4",
            hint="return logits.argmax(dim=-1) before dividing by the temperature: logits / 0 is"
                 " +-inf and nan, and argmax needs dim=-1 to give one token per row")
def test_greedy(solution):
    for seed in SEEDS:
        logits = make(5, 50, seed)
        for top_k in (None, 1, 3, 50):
            got = tokens_of(solution, logits, 0.0, top_k, gen(seed), f"seed {seed}, {setting(0.0, top_k)}")
            expect_tensor(got, logits.argmax(dim=-1), f"seed {seed}, {setting(0.0, top_k)}", atol=0, rtol=0)
    ties = torch.tensor([[0.0, 2.0, 1.0, 2.0], [5.0, 5.0, 5.0, 5.0], [-1.0, -3.0, -1.0, -2.0]])
    got = tokens_of(solution, ties, 0.0, None, gen(0), "rows with tied maxima")
    expect_tensor(got, torch.tensor([1, 0, 0]), "rows with tied maxima 0 2 1 2 / 5 5 5 5 / -1 -3 -1 -2",
                  atol=0, rtol=0)
    large = make(3, 20, 1, scale=1e4)
    got = tokens_of(solution, large, 0.0, 5, gen(0), "logits x 1e4")
    expect_tensor(got, large.argmax(dim=-1), "logits x 1e4, temperature 0", atol=0, rtol=0)


@TESTS.test("without top_k, each token is drawn with probability softmax(logits / temperature):"
            " temperature 0.5, 1 and 2, 4 rows x 10,000 draws, within 5 standard errors",
            hint="divide the logits (not the probabilities) by the temperature, softmax over the last"
                 " dimension, and draw with torch.multinomial(probs, 1, generator=generator)")
def test_temperature_distribution(solution):
    for seed, temperature in ((0, 0.5), (1, 1.0), (2, 2.0)):
        rows = make(4, 8, seed)
        check_counts(solution, rows, temperature, None, 10_000, gen(seed),
                     f"seed {seed}, {setting(temperature, None)}")


@TESTS.test("with top_k, the kept tokens are drawn with their renormalised probabilities: top_k 1 to"
            " 6 with temperature 0.7 to 1.5, 4 rows x 10,000 draws, within 5 standard errors",
            hint="softmax of the filtered logits gives the -inf tokens exactly 0 and the kept tokens"
                 " their probabilities divided by the mass kept")
def test_top_k_distribution(solution):
    for seed, temperature, top_k in ((0, 1.0, 3), (1, 0.7, 5), (2, 1.5, 2), (3, 1.0, 6)):
        rows = make(4, 8, seed)
        check_counts(solution, rows, temperature, top_k, 10_000, gen(seed),
                     f"seed {seed}, {setting(temperature, top_k)}")


@TESTS.test("a token outside the top k is never drawn, also when every logit is negative (20,000"
            " draws per setting)",
            hint="set the logits outside the top k to -inf, not 0: exp(0) = 1 is a real probability"
                 " when the kept logits are negative")
def test_never_outside_top_k(solution):
    for seed in SEEDS:
        rows = make(1, 30, seed) - 6.0  # every logit near -6: a 0 would be the likeliest token
        for temperature, top_k in ((1.0, 4), (0.8, 1), (2.0, 10)):
            got = tokens_of(solution, rows.repeat(20_000, 1), temperature, top_k, gen(seed),
                            f"seed {seed}, {setting(temperature, top_k)}")
            kept = reference_filter(rows, temperature, top_k)[0] != NEG
            outside = got[~kept[got]]
            if outside.numel():
                raise Wrong(f"seed {seed}, logits near -6, {setting(temperature, top_k)}: token"
                            f" {int(outside[0])}, outside the top {top_k}, drawn {outside.numel()}"
                            " times in 20000 draws")


@TESTS.test("top_k = V and above is the same as no top_k; top_k = 1 always draws the argmax;"
            " V = 1 always draws token 0",
            hint="topk(k) raises when k > V: treat top_k >= V as keeping every token; and keep"
                 " the k-th largest itself (>= the k-th value, not >)")
def test_top_k_edges(solution):
    filt = need(solution, "filter_logits")
    for seed in SEEDS:
        logits = make(3, 12, seed)
        for top_k in (12, 13, 100):
            expect_tensor(filt(logits, 0.8, top_k), logits / 0.8, f"seed {seed}, V = 12, "
                          + setting(0.8, top_k), atol=1e-6, rtol=1e-5)
        got = tokens_of(solution, logits.repeat(1000, 1), 1.3, 1, gen(seed), f"seed {seed}, top_k 1")
        expect_tensor(got, logits.argmax(dim=-1).repeat(1000), f"seed {seed}, temperature 1.3, top_k 1"
                      " (1000 draws of 3 rows)", atol=0, rtol=0)
    rows = make(2, 8, 5)
    check_counts(solution, rows, 0.9, 8, 10_000, gen(5), "seed 5, V = 8, temperature 0.9, top_k 8")
    single = make(4, 1, 0)
    for temperature, top_k in ((1.0, None), (0.5, 1), (0.0, 3)):
        got = tokens_of(solution, single, temperature, top_k, gen(0), f"V = 1, {setting(temperature, top_k)}")
        expect_tensor(got, torch.zeros(4, dtype=torch.int64), f"V = 1, {setting(temperature, top_k)}",
                      atol=0, rtol=0)


@TESTS.test("logits of 1e4 and spread by 1e4 give no NaN: filter_logits is exact, and sample draws"
            " the argmax at temperature 1 and the right distribution at temperature 1e4",
            hint="exp(1e4) overflows: subtract each row's max before exp, or use torch.softmax, which"
                 " passes this test")
def test_large_logits(solution):
    for seed in SEEDS:
        logits = make(4, 16, seed, scale=1e4)  # neighbouring logits hundreds apart: near one-hot
        got = need(solution, "filter_logits")(logits, 1.0, 5)
        expect_tensor(got, reference_filter(logits, 1.0, 5).float(), f"seed {seed}, logits x 1e4, "
                      + setting(1.0, 5), atol=1e-6, rtol=1e-5)
        drawn = tokens_of(solution, logits.repeat(100, 1), 1.0, None, gen(seed), f"seed {seed}, logits x 1e4")
        expect_tensor(drawn, logits.argmax(dim=-1).repeat(100), f"seed {seed}, logits x 1e4,"
                      " temperature 1, 100 draws of 4 rows", atol=0, rtol=0)
    shifted = make(4, 8, 3) * 1e4 + 1e4
    check_counts(solution, shifted, 1e4, 4, 10_000, gen(3), "seed 3, logits x 1e4 + 1e4, temperature"
                 " 1e4, top_k 4")


@TESTS.test("all randomness comes from the generator: the same seed gives the same tokens whatever"
            " the global seed, and generator=None uses the global one",
            hint="pass generator=generator to torch.multinomial (or torch.rand); do not draw from the"
                 " global generator or reseed it")
def test_generator(solution):
    logits = make(64, 20, 4)
    runs = []
    for global_seed in (1, 2):
        torch.manual_seed(global_seed)
        runs.append(tokens_of(solution, logits, 1.0, 10, gen(7), f"generator seed 1007, global seed {global_seed}"))
    expect_tensor(runs[1], runs[0], "the tokens with the same generator seed under global seeds 1 and 2",
                  atol=0, rtol=0)
    other = tokens_of(solution, logits, 1.0, 10, gen(8), "generator seed 1008")
    if torch.equal(other, runs[0]):
        raise Wrong("generator seeds 1007 and 1008 gave the same 64 tokens: the generator's draws"
                    " do not reach the result")
    nones = []
    for _ in range(2):
        torch.manual_seed(3)
        nones.append(tokens_of(solution, logits, 1.0, 10, None, "generator None"))
    expect_tensor(nones[1], nones[0], "generator None, the tokens after torch.manual_seed(3) twice",
                  atol=0, rtol=0)
