"""Each drill's judge, proven on its own solutions by the engine's records.

The engine runs `judge_<role>.py` for the starter, the reference and every mistake and records
the verdict it prints. A drill is proven when those records are current and say that the
reference passes every test, the starter does not, and each mistake fails the test it names:
a judge that lets a listed mistake through, or fails its own reference, is refused here, and so
by `check_pages.py` and the build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from question_pages.format.model import PageError
from snippet_engine.records.check import record_state
from snippet_engine.records.record_file import read_record
from snippet_engine.source.discovery import Snippet

from .bank import Drill, DrillError, drill_folders, load_drill, verdict_source

_LINE = re.compile(r"^(?P<status>PASS|FAIL|ERROR|TIME) +(?P<test>[a-z0-9_]+): ")
_VERDICT = re.compile(r"^verdict: .* \((?P<good>\d+) of (?P<total>\d+) tests pass\)$", re.M)
_NOT_RUN = re.compile(r"^not run: (?P<names>.+)$", re.M)


@dataclass(frozen=True)
class Verdict:
    """What a recorded verdict says, per test."""

    statuses: dict[str, str]  # test -> PASS, FAIL, ERROR or TIME; tests not run are absent
    good: int
    total: int

    @property
    def passed(self) -> bool:
        return self.total > 0 and self.good == self.total

    def failed(self) -> list[str]:
        return [test for test, status in self.statuses.items() if status != "PASS"]


def parse_verdict(output: str) -> Verdict | None:
    """The verdict in a judge's printed output, or None when it printed none (it crashed)."""
    statuses = {}
    for line in output.splitlines():
        found = _LINE.match(line)
        if found:
            statuses[found["test"]] = found["status"]
    summary = list(_VERDICT.finditer(output))
    if not summary:
        return None
    return Verdict(statuses, int(summary[-1]["good"]), int(summary[-1]["total"]))


def recorded_verdict(drill: Drill, role: str, root: Path,
                     problems: list[PageError]) -> Verdict | None:
    """The current CPU record's verdict for `role`, or None with a problem saying what to run."""
    snippet = drill.verdict_snippet(role)
    rel = snippet.relative_to(root).as_posix()
    run = f"Run: python scripts/snippets.py run {drill.folder.relative_to(root).as_posix()}"
    if not snippet.is_file():
        problems.append(PageError(rel, 1, f"missing: this snippet records the judge's verdict on "
                                  f"_{role}.py", f"Run: python scripts/drills.py snippets {drill.id}; "
                                  f"then {run[5:]}"))
        return None
    if snippet.read_text(encoding="utf-8") != verdict_source(role):
        problems.append(PageError(rel, 1, f"holds something other than the judge run on _{role}.py",
                                  f"Run: python scripts/drills.py snippets {drill.id}"))
        return None
    state, why = record_state(snippet, root, "cpu")
    if state != "current":
        problems.append(PageError(rel, 1, f"the CPU record is {state} ({why})", run))
        return None
    record = read_record(Snippet(snippet, rel).record_path("cpu"))
    verdict = parse_verdict(record.output) if record is not None else None
    if verdict is None:
        problems.append(PageError(rel, 1, "the record holds no verdict line (the judge crashed "
                                  "before its summary)", f"Read the record, fix the judge; {run}"))
    return verdict


def prove(drill: Drill, root: Path) -> list[PageError]:
    """Every way the drill's records fail to prove its judge; empty when they prove it."""
    problems: list[PageError] = []
    expected = set(drill.tests)
    for role, path in drill.solutions():
        verdict = recorded_verdict(drill, role, root, problems)
        if verdict is None:
            continue
        rel = drill.verdict_snippet(role).relative_to(root).as_posix()
        source = path.relative_to(root).as_posix()
        if verdict.total != len(expected):
            problems.append(PageError(rel, 1, f"the record's verdict counts {verdict.total} tests, "
                                      f"the judge declares {len(expected)}",
                                      f"Run: python scripts/snippets.py run {rel}"))
        if role == "reference" and not verdict.passed:
            problems.append(PageError(source, 1, "the reference fails "
                                      f"{', '.join(verdict.failed()) or 'a test'}",
                                      "Fix the reference or the judge, then re-run the snippets"))
        elif role == "starter" and verdict.passed:
            problems.append(PageError(source, 1, "the starter passes every test",
                                      "A starter gives the contract, not the solution: make its "
                                      "body raise NotImplementedError"))
        elif role.startswith("mistake_"):
            mistake = next(m for m in drill.mistakes if f"mistake_{m.name}" == role)
            status = verdict.statuses.get(mistake.fails)
            if status in (None, "PASS"):
                what = "passes" if status == "PASS" else "never reaches"
                problems.append(PageError(
                    source, mistake.fails_line,
                    f"this mistake {what} test {mistake.fails}, the test it names"
                    + (" (the judge lets it through)" if verdict.passed else
                       f" (it fails {', '.join(verdict.failed())})"),
                    "Sharpen the test until it catches the mistake, or name the test that does"))
    return problems


def drill_errors(root: Path) -> list[PageError]:
    """Every problem of every drill: malformed files, and records that do not prove the judge."""
    errors: list[PageError] = []
    for folder in drill_folders(root):
        try:
            drill = load_drill(folder, root)
        except DrillError as exc:
            errors.append(exc.error)
            continue
        errors += prove(drill, root)
    return errors
