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

from helpers import ROOT

DRILLS = ROOT / "scripts" / "drills.py"
BLIND = Path(__file__).resolve().parent / "blind"

# "<id>/<file>": why the judge disagrees (blind/FINDINGS.md says more). Empty: none found so far.
KNOWN: dict[str, str] = {}

RESULT = re.compile(r"^(PASS|FAIL|ERROR) +(\w+):", re.MULTILINE)
VERDICT = re.compile(r"^verdict: .*\((\d+) of (\d+) tests pass\)\s*$", re.MULTILINE)


def blind_files() -> list[Path]:
    return sorted(path for pattern in ("correct_*.py", "wrong_*.py") for path in BLIND.glob(f"*/{pattern}"))


def key(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def cases() -> list:
    params = []
    for path in blind_files():
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
    assert results and verdict, f"no test lines or no verdict from the judge:\n{output}"
    passed, total = int(verdict[1]), int(verdict[2])
    assert total == len(results), output
    failed = [name for status, name in results if status != "PASS"]
    if path.name.startswith("correct_"):
        assert done.returncode == 0 and not failed, (
            f"a correct solution is refused ({passed} of {total} pass; {failed}):\n{output}")
    else:
        assert done.returncode != 0 and failed, (
            f"a wrong solution passes every test ({passed} of {total}): "
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
