"""The judge of a coding drill: runs a drill's tests on a solution and prints a verdict per test.

Each drill's `_judge.py` declares its tests with `TESTS = Tests("drill-id")` and `@TESTS.test(...)`;
a test calls the solution (a module, or the namespace of the file being judged) and raises
`Wrong` when what came back is not what was expected. The same code runs three ways: as a helper
of the drill's snippets (the engine records the verdict on the starter, the reference and each
listed mistake), from `scripts/drills.py judge`, and pasted into the single file a reader
downloads, so it needs the standard library and torch only, and prints nothing that depends on
the machine or the clock (a record must be the same on every run).
"""

import importlib.util
import sys
import threading
import traceback

import torch


class Wrong(AssertionError):
    """What a test expected and what came: the verdict prints the message as it is."""


def largest_difference(got, expected):
    """The largest absolute difference and the index where it is, as numbers a reader can act on."""
    diff = (got.detach().double() - expected.detach().double()).abs()
    a, b = got.detach().double(), expected.detach().double()
    diff = torch.where(torch.isinf(a) & (a == b), torch.zeros_like(diff), diff)  # same infinity
    diff = torch.where(torch.isnan(diff), torch.full_like(diff, float("inf")), diff)
    if diff.numel() == 0:
        return 0.0, ()
    flat = int(diff.reshape(-1).argmax())
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), diff.shape))
    return float(diff.reshape(-1)[flat]), index


def _number(value):
    return f"{value:.3g}"


def expect_tensor(got, expected, what="the output", atol=1e-5, rtol=1e-5, check_dtype=True):
    """Raise Wrong unless `got` is a tensor of `expected`'s shape (and dtype) and values."""
    if not isinstance(got, torch.Tensor):
        raise Wrong(f"{what}: expected a tensor, got {type(got).__name__}")
    if tuple(got.shape) != tuple(expected.shape):
        raise Wrong(f"{what}: expected shape {tuple(expected.shape)}, got {tuple(got.shape)}")
    if check_dtype and got.dtype != expected.dtype:
        raise Wrong(f"{what}: expected dtype {expected.dtype}, got {got.dtype}")
    nan_got, nan_expected = torch.isnan(got.detach()), torch.isnan(expected.detach())
    if not torch.equal(nan_got, nan_expected):
        where = tuple(int(i) for i in (nan_got != nan_expected).nonzero()[0])
        mine, theirs = ("a number", "NaN") if bool(nan_expected[where]) else ("NaN", "a number")
        raise Wrong(f"{what}: {mine} where the reference has {theirs}"
                    f" (first at index {where}, got {_number(float(got[where]))},"
                    f" expected {_number(float(expected[where]))})")
    close = torch.isclose(got.detach().double(), expected.detach().double(), rtol=rtol, atol=atol,
                          equal_nan=True)
    if not bool(close.all()):
        value, index = largest_difference(got, expected)
        raise Wrong(f"{what}: largest difference {_number(value)} at index {index}"
                    f" (got {_number(float(got[index]))}, expected {_number(float(expected[index]))};"
                    f" allowed {_number(atol)} + {_number(rtol)} x |expected|)")


def need(solution, name):
    """The solution's `name`, or Wrong saying it is missing."""
    found = getattr(solution, name, None)
    if found is None:
        raise Wrong(f"the solution defines no `{name}`")
    return found


class Test:
    """One named check: what it holds the solution to, and a hint for a reader whose code fails it."""

    def __init__(self, name, fn, says, hint, timeout_s):
        self.name, self.fn, self.says, self.hint, self.timeout_s = name, fn, says, hint, timeout_s


class Outcome:
    def __init__(self, test, status, message=""):
        self.test, self.status, self.message = test, status, message

    def line(self):
        text = f"{self.status:<5} {self.test.name}: {self.test.says}"
        return text + (f"\n      {self.message}" if self.message else "")


def _in_thread(test, solution):
    """Run one test with its timeout. A test past its time is abandoned (a thread cannot be
    stopped), so the judge stops there; the test's own work goes on in a daemon thread until
    the process ends."""
    box = {}

    def target():
        torch.manual_seed(0)
        try:
            test.fn(solution)
            box["status"] = ("PASS", "")
        except Wrong as exc:
            box["status"] = ("FAIL", str(exc))
        except Exception as exc:  # the solution raised: its error is the verdict
            frames = traceback.extract_tb(exc.__traceback__)
            where = next((f"{f.filename.rsplit('/', 1)[-1]} line {f.lineno}" for f in reversed(frames)
                          if not f.filename.endswith(("_drill.py", "_judge.py"))
                          and "torch" not in f.filename.split("/")[-2:-1]), "")
            summary = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]
            box["status"] = ("ERROR", summary + (f" ({where})" if where else ""))

    thread = threading.Thread(target=target, name=f"drill-test-{test.name}", daemon=True)
    thread.start()
    thread.join(test.timeout_s)
    if thread.is_alive():
        return Outcome(test, "TIME", f"still running after {test.timeout_s} s; the judge stops here"), True
    return Outcome(test, *box["status"]), False


class Verdict:
    def __init__(self, drill, outcomes, skipped):
        self.drill, self.outcomes, self.skipped = drill, outcomes, skipped

    @property
    def passed(self):
        return not self.skipped and all(o.status == "PASS" for o in self.outcomes)

    def failed(self):
        """The names of the tests that did not pass."""
        return [o.test.name for o in self.outcomes if o.status != "PASS"]

    def text(self):
        lines = [o.line() for o in self.outcomes]
        first = next((o for o in self.outcomes if o.status != "PASS"), None)
        if first is not None and first.test.hint:
            lines.append(f"hint for {first.test.name}: {first.test.hint}")
        if self.skipped:
            lines.append(f"not run: {', '.join(self.skipped)}")
        total = len(self.outcomes) + len(self.skipped)
        good = sum(o.status == "PASS" for o in self.outcomes)
        lines.append(f"verdict: {'every test passes' if self.passed else 'not yet'}"
                     f" ({good} of {total} tests pass)")
        return "\n".join(lines)


class Tests:
    """A drill's tests, in the order a reader should meet their failures."""

    def __init__(self, drill):
        self.drill, self.tests = drill, []

    def test(self, says, hint="", timeout_s=20.0):
        def register(fn):
            self.tests.append(Test(fn.__name__.removeprefix("test_"), fn, says, hint, timeout_s))
            return fn
        return register

    def judge(self, solution):
        """Every test on `solution` (a module or a namespace); stops at a test past its time."""
        outcomes, skipped = [], []
        for number, test in enumerate(self.tests):
            outcome, stuck = _in_thread(test, solution)
            outcomes.append(outcome)
            if stuck:
                skipped = [t.name for t in self.tests[number + 1:]]
                break
        return Verdict(self.drill, outcomes, skipped)

    def report(self, solution):
        """Judge and print the verdict (what the drill's snippets record); return it."""
        verdict = self.judge(solution)
        print(verdict.text())
        return verdict


def load_solution(path, name="solution"):
    """The module a solution file defines, run as `python` would import it."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(tests, here, argv=None):
    """`python drill_<id>.py` judges the solution above the judge in the same file (`here`, the
    `__main__` module); `python drill_<id>.py other.py` judges that file. The exit status is 0
    only when every test passes."""
    argv = sys.argv[1:] if argv is None else argv
    solution = load_solution(argv[0]) if argv else here
    return 0 if tests.report(solution).passed else 1
