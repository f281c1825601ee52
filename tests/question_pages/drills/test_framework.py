"""The judges' framework (snippets/_drill.py): what a verdict says for each way a solution goes
wrong (a wrong value, shape, dtype or NaN; an exception, with its line; a test past its time,
after which the judge stops), and that the verdict never prints anything machine-dependent."""

from __future__ import annotations

import sys
import types

import pytest
import torch

from helpers import ROOT

sys.path.insert(0, str(ROOT / "snippets"))
import _drill


def verdict_of(body: str, timeout_s: float = 20.0) -> str:
    tests = _drill.Tests("t")

    @tests.test("one", hint="think", timeout_s=timeout_s)
    def test_one(solution: types.SimpleNamespace) -> None:
        x = torch.arange(6.0).reshape(2, 3)
        _drill.expect_tensor(_drill.need(solution, "f")(x), x * 2, "f(x)")

    @tests.test("two")
    def test_two(solution: types.SimpleNamespace) -> None:
        _drill.need(solution, "f")

    namespace: dict = {"torch": torch}
    exec(compile(body, "mine.py", "exec"), namespace)
    return tests.judge(types.SimpleNamespace(**namespace)).text()


@pytest.mark.parametrize(("body", "says"), [
    ("def f(x):\n    return x * 2\n",
     "PASS  one: one\nPASS  two: two\nverdict: every test passes (2 of 2 tests pass)"),
    ("def f(x):\n    return x.T * 2\n", "f(x): expected shape (2, 3), got (3, 2)"),
    ("def f(x):\n    return (x * 2).double()\n", "f(x): expected dtype torch.float32, got torch.float64"),
    ("def f(x):\n    return x * 2 / (x != 0)\n",
     "f(x): NaN where the reference has a number (first at index (0, 0), got nan, expected 0)"),
    ("def f(x):\n    y = x * 2\n    y[1, 2] += 0.5\n    return y\n",
     "f(x): largest difference 0.5 at index (1, 2) (got 10.5, expected 10;"
     " allowed 1e-05 + 1e-05 x |expected|)"),
    ("def f(x):\n    return x.numpy()\n", "f(x): expected a tensor, got ndarray"),
    ("g = 1\n", "FAIL  two: two\n      the solution defines no `f`"),
    ("def f(x):\n    return x[5]\n", "ERROR one: one\n      IndexError: index 5 is out of bounds"),
])
def test_the_verdict_says_what_went_wrong(body: str, says: str) -> None:
    text = verdict_of(body)
    assert says in text, text
    if "every test passes" not in says:
        assert "hint for one: think" in text or "FAIL  two" in says


def test_a_number_where_the_reference_has_nan_is_named_as_such() -> None:
    expected = torch.tensor([1.0, float("nan")])
    with pytest.raises(_drill.Wrong, match=r"^y: a number where the reference has NaN"
                                           r" \(first at index \(1,\), got 0, expected nan\)"):
        _drill.expect_tensor(torch.tensor([1.0, 0.0]), expected, "y")


def test_an_exception_names_the_line_of_the_solution() -> None:
    assert "(mine.py line 2)" in verdict_of("def f(x):\n    return x[5]\n")


def test_a_test_past_its_time_stops_the_judge() -> None:
    text = verdict_of("import time\ndef f(x):\n    time.sleep(30)\n", timeout_s=0.3)
    assert text.splitlines() == [
        "TIME  one: one", "      still running after 0.3 s; the judge stops here",
        "hint for one: think", "not run: two", "verdict: not yet (0 of 2 tests pass)"]


def test_each_test_starts_from_the_same_random_state() -> None:
    seen = []
    tests = _drill.Tests("t")
    for name in ("a", "b"):
        tests.test(name)(lambda solution: seen.append(torch.rand(1).item()))
    tests.judge(types.SimpleNamespace())
    assert seen[0] == seen[1]
