"""The proof of a judge (question_pages/drills/proof.py) on records the real engine writes: a
drill whose records show its reference passing and each mistake failing its named test is
proven; a mistake the judge lets through, a mistake that fails another test than the one it
names, a reference that fails and a record that is not current are each refused, with the file
and line to fix. The real bank is proven too, as check_pages.py says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import ROOT, run_cli, write
from question_pages.drills.bank import load_drill, verdict_source
from question_pages.drills.proof import drill_errors, parse_verdict, prove

JUDGE = '''from _drill import Tests, expect_tensor, need
import torch

TESTS = Tests("add-one")


@TESTS.test("adds one to every element", hint="x + 1")
def test_values(solution):
    x = torch.arange(4.0)
    expect_tensor(need(solution, "add_one")(x), x + 1)


@TESTS.test("keeps the dtype", hint="do not convert")
def test_dtype(solution):
    x = torch.arange(4, dtype=torch.float64)
    expect_tensor(need(solution, "add_one")(x), x + 1)
'''
STARTER = "def add_one(x):\n    raise NotImplementedError\n"
REFERENCE = "def add_one(x):\n    return x + 1\n"
MISTAKES = {
    # Fails values, as it says.
    "adds_two": "# mistake: adds two\n# fails: values\ndef add_one(x):\n    return x + 2\n",
    # Not a mistake at all: the judge lets it through.
    "harmless": "# mistake: the same thing\n# fails: values\ndef add_one(x):\n    return 1 + x\n",
    # Fails dtype only, but names values.
    "to_float": ("# mistake: converts to float32\n# fails: values\nimport torch\n\n"
                 "def add_one(x):\n    return x.float() + 1\n"),
}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with one small drill whose verdicts the engine has recorded."""
    root = tmp_path_factory.mktemp("drills") / "repo"
    shutil.copy2(ROOT / "snippets" / "_drill.py", write(root, "snippets/_drill.py", ""))
    folder = "snippets/drills/add-one/"
    for name, text in {"_judge.py": JUDGE, "_starter.py": STARTER, "_reference.py": REFERENCE,
                       **{f"_mistake_{k}.py": v for k, v in MISTAKES.items()}}.items():
        write(root, folder + name, text)
    for role in ("starter", "reference", *[f"mistake_{k}" for k in MISTAKES]):
        write(root, f"{folder}judge_{role}.py", verdict_source(role))
    done = run_cli("run", root=root)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return root


def problems(root: Path) -> list[str]:
    return [str(p) for p in prove(load_drill(root / "snippets/drills/add-one", root), root)]


def test_each_way_a_judge_is_not_proven_is_refused_where_it_is(recorded: Path) -> None:
    found = problems(recorded)
    assert len(found) == 2, found
    harmless, to_float = sorted(found)
    assert harmless.startswith("snippets/drills/add-one/_mistake_harmless.py:2: this mistake passes "
                               "test values, the test it names (the judge lets it through)")
    assert to_float.startswith("snippets/drills/add-one/_mistake_to_float.py:2: this mistake passes "
                               "test values, the test it names (it fails dtype)")


def test_a_reference_that_fails_and_a_starter_that_passes_are_refused(recorded: Path,
                                                                     tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(recorded, root)
    folder = root / "snippets/drills/add-one"
    for name in ("_mistake_harmless.py", "judge_mistake_harmless.py", "judge_mistake_harmless.cpu.txt",
                 "_mistake_to_float.py", "judge_mistake_to_float.py", "judge_mistake_to_float.cpu.txt"):
        (folder / name).unlink()
    assert problems(root) == []
    write(folder, "_reference.py", "def add_one(x):\n    return x + 1.5\n")
    write(folder, "_starter.py", REFERENCE)
    stale = problems(root)
    assert [p.split(":")[0].rsplit("/", 1)[1] for p in stale] == ["judge_starter.py", "judge_reference.py"]
    assert all(": the CPU record is stale (" in p and p.endswith(
        "Run: python scripts/snippets.py run snippets/drills/add-one") for p in stale), stale
    assert run_cli("run", root=root).returncode == 0
    assert problems(root) == [
        "snippets/drills/add-one/_starter.py:1: the starter passes every test. A starter gives the "
        "contract, not the solution: make its body raise NotImplementedError",
        "snippets/drills/add-one/_reference.py:1: the reference fails values, dtype. Fix the "
        "reference or the judge, then re-run the snippets"]


def test_a_verdict_snippet_that_was_edited_is_refused(recorded: Path, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(recorded, root)
    write(root, "snippets/drills/add-one/judge_reference.py", "print('verdict: every test passes')\n")
    assert any(p.startswith("snippets/drills/add-one/judge_reference.py:1: holds something other "
                            "than the judge run on _reference.py") for p in problems(root))


def test_a_verdict_is_read_per_test() -> None:
    verdict = parse_verdict("PASS  a: x\nFAIL  b: y\n      detail\nERROR c: z\n"
                            "hint for b: h\nverdict: not yet (1 of 3 tests pass)\n")
    assert verdict is not None and verdict.statuses == {"a": "PASS", "b": "FAIL", "c": "ERROR"}
    assert (verdict.good, verdict.total, verdict.passed, verdict.failed()) == (1, 3, False, ["b", "c"])
    assert parse_verdict("Traceback (most recent call last):\n") is None


def test_every_drill_of_the_real_bank_is_proven_by_its_records() -> None:
    assert [str(e) for e in drill_errors(ROOT)] == []
