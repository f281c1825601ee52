"""The drills' judges against solutions written blind: tests/question_pages/drills/blind/<id>/.

Each file there was written from the drill's contract only, the starter's docstring
(snippets/drills/<id>/_starter.py) and the `## Task` section of its page, by an author who never
read the judge, the reference, the prepared mistakes or the rest of the page. correct_*.py are two
correct solutions per drill in different styles; wrong_*.py are bugs a candidate plausibly writes,
each named by its first line, `# wrong: ...`. The judge and the reference were written together,
so a judge can quietly demand the reference's own choices (a state key name, where a cast falls)
or miss a bug its author never thought of; solutions from outside that circle test the contract
and the judge as a reader meets them: a correct one must pass, a wrong one must fail a test.

Each file is judged for real, as a reader judges one: `python scripts/drills.py judge <id> <file>`.
A run judges the blind solutions of four drills drawn by the commit (tests/browser/page_sample.py:
`SITE_SAMPLE_SEED=<seed>` draws them again, `SITE_SAMPLE=all` takes every drill), and of every drill
whose judge, files or blind solutions have uncommitted changes in the checkout (the framework
snippets/_drill.py changed: every drill). All 22 drills' files took 430 s of CPU a run and the
count grows with each drill; the judges' verdicts on their own reference and mistakes are proven
at every build (question_pages/drills/proof.py), and over a project's commits every drill is drawn.
A disagreement that the blind author recorded in blind/FINDINGS.md as a judge gap or a contract
defect is listed in KNOWN below and marked xfail(strict=True): it stays visible, and the test
turns red the day the judge is fixed, so the entry is removed then.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser.page_sample import BLIND_DRILLS, sample_from_env

from helpers import ROOT

DRILLS = ROOT / "scripts" / "drills.py"
BLIND = Path(__file__).resolve().parent / "blind"

# "<id>/<file>": why the judge disagrees (blind/FINDINGS.md says more). Empty: none found so far.
KNOWN: dict[str, str] = {}

RESULT = re.compile(r"^(PASS|FAIL|ERROR) +(\w+):", re.MULTILINE)
VERDICT = re.compile(r"^verdict: .*\((\d+) of (\d+) tests pass\)\s*$", re.MULTILINE)


def blind_files() -> list[Path]:
    return sorted(path for pattern in ("correct_*.py", "wrong_*.py") for path in BLIND.glob(f"*/{pattern}"))


def changed_here(drills: list[str]) -> set[str]:
    """The drills with uncommitted changes in this checkout (their judge's folder or their blind
    solutions); every drill when the judges' framework changed."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "snippets/_drill.py",
                               "snippets/drills", str(BLIND.relative_to(ROOT))],
                              capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return set()
    paths = [line[3:].split(" -> ")[-1].strip('"') for line in done.stdout.splitlines()]
    if any(path == "snippets/_drill.py" for path in paths):
        return set(drills)
    blind = BLIND.relative_to(ROOT).as_posix() + "/"
    named = {path.removeprefix(prefix).split("/")[0] for path in paths
             for prefix in ("snippets/drills/", blind) if path.startswith(prefix)}
    return named & set(drills)


def sampled_drills() -> tuple[list[str], str]:
    """The drills a run judges the blind solutions of, and how they were chosen."""
    drills = sorted(p.name for p in BLIND.iterdir() if p.is_dir() and p.name != "__pycache__")
    chosen = sample_from_env({BLIND_DRILLS: drills})
    changed = changed_here(drills)
    picked = sorted(set(chosen.by_template[BLIND_DRILLS]) | changed)
    return picked, chosen.describe() + (f"\n  changed in the checkout: {', '.join(sorted(changed))}"
                                        if changed else "")


SAMPLED, HOW = sampled_drills()


def key(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def cases() -> list:
    params = []
    for path in blind_files():
        if path.parent.name not in SAMPLED:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[key(path)])] if key(path) in KNOWN else []
        params.append(pytest.param(path, id=key(path).removesuffix(".py"), marks=marks))
    return params


def judge(drill: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(DRILLS), "judge", drill, str(path)], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, check=False)


@pytest.mark.parametrize("path", cases())
def test_the_judge_agrees_with_the_blind_author(path: Path) -> None:
    done = judge(path.parent.name, path)
    output = done.stdout + done.stderr
    results = RESULT.findall(done.stdout)
    verdict = VERDICT.search(done.stdout)
    assert results and verdict, f"{HOW}\nno test lines or no verdict from the judge:\n{output}"
    passed, total = int(verdict[1]), int(verdict[2])
    assert total == len(results), output
    failed = [name for status, name in results if status != "PASS"]
    if path.name.startswith("correct_"):
        assert done.returncode == 0 and not failed, (
            f"{HOW}\na correct solution is refused ({passed} of {total} pass; {failed}):\n{output}")
    else:
        assert done.returncode != 0 and failed, (
            f"{HOW}\na wrong solution passes every test ({passed} of {total}): "
            f"{path.read_text(encoding='utf-8').splitlines()[0]}\n{output}")


def test_every_drill_has_its_blind_solutions() -> None:
    """Two correct solutions and two or three wrong ones per drill, each wrong one saying what is
    wrong; no folder for a drill that does not exist, and no KNOWN entry for a file that does not."""
    listed = subprocess.run([sys.executable, str(DRILLS), "list"], capture_output=True, text=True,
                            cwd=ROOT, timeout=120, check=True).stdout.split()
    assert listed
    assert sorted(p.name for p in BLIND.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(listed)
    for drill in listed:
        folder = BLIND / drill
        assert len(list(folder.glob("correct_*.py"))) >= 2, drill
        wrong = list(folder.glob("wrong_*.py"))
        assert 2 <= len(wrong) <= 3, drill
        for path in wrong:
            assert path.read_text(encoding="utf-8").startswith("# wrong: "), key(path)
    assert set(KNOWN) <= {key(path) for path in blind_files()}


def test_a_run_judges_four_drills_or_every_one() -> None:
    """The sample is four drills by default and every drill with SITE_SAMPLE=all, each with all of
    its blind files."""
    drills = sorted(p.name for p in BLIND.iterdir() if p.is_dir() and p.name != "__pycache__")
    some = sample_from_env({BLIND_DRILLS: drills}, env={"SITE_SAMPLE_SEED": "a"})
    every = sample_from_env({BLIND_DRILLS: drills}, env={"SITE_SAMPLE": "all"})
    assert len(some.by_template[BLIND_DRILLS]) == 4 and every.by_template[BLIND_DRILLS] == drills
    assert set(SAMPLED) >= set(sample_from_env({BLIND_DRILLS: drills}).by_template[BLIND_DRILLS])
    assert {p.parent.name for p in blind_files()} == set(drills)
