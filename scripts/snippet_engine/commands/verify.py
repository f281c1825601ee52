"""`verify-changed`: re-run every snippet whose record a submission changed, and fail unless each
prints what its record says.

A record's digest (`records.Record.result_digest`) catches a hand edit of its output, but not one
made by someone who also rewrote the digest. This does: the records that differ from a git ref
(the submission's base) are run again, in a scratch copy of snippets/ as a drift run is (no
committed record is written or marked), and each outcome and normalised output is compared with
the committed record. Only the changed records run, so CI can afford it on every submission.
Records of a device this machine cannot run are listed, not judged.

`verify` (`verify_paths`) is the same judgement of any snippets, every one by default, and either
can run them under a second CPU capability (`--cpu-capability`, `snippet_env.CPU_CAPABILITIES`):
a record must not depend on the CPU that made it, and one whose float32 output moves by an ulp
when the vectors are half as wide fails here, on one machine.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from snippet_engine.errors import ProjectError
from snippet_engine.execution.progress import Progress
from snippet_engine.execution.runner import Outcome, execute, plan, select
from snippet_engine.protocol import GOOD
from snippet_engine.records.environment import Environment
from snippet_engine.records.record_file import (
    Record,
    RecordError,
    copy_without_records,
    read_record,
)
from snippet_engine.source.discovery import Snippet, all_records, snippet_for_record


class VerifyError(ProjectError, RuntimeError):
    """Nothing could be verified: no git repository, or no such ref in it."""


@dataclass(frozen=True)
class Verdict:
    record: str  # the record, relative to the repository root
    problem: str  # "" when the re-run printed what the record says


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=False, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise VerifyError(f"cannot run git in {root}: {exc}") from None
    if done.returncode != 0:
        raise VerifyError(f"git {' '.join(args)} failed in {root}: {done.stderr.strip()[-500:]}")
    return done.stdout


def changed_records(root: Path, since: str) -> list[Path]:
    """The records that exist now and differ from `since` (a commit, branch or tag): modified,
    added (committed or not) or renamed in; a deleted record is `check`'s to report."""
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}")
    except VerifyError:
        raise VerifyError(f"no commit '{since}' in {root}: give the submission's base, and fetch "
                          "it first (a shallow CI checkout needs fetch-depth: 0)") from None
    names = _git(root, "diff", "--name-only", "--no-renames", "--diff-filter=d", since, "--",
                 "snippets").splitlines()
    names += _git(root, "ls-files", "--others", "--exclude-standard", "--", "snippets").splitlines()
    records = set(all_records(root))
    return sorted({root / name for name in names} & records)


def verify(root: Path, since: str, env: Environment, jobs: int,
           progress_enabled: bool | None = None,
           cpu_capability: str | None = None) -> tuple[list[Verdict], list[str]]:
    """(a verdict per changed record of `env.device`, the changed records of other devices)."""
    changed = changed_records(root, since)
    mine = [path for path in changed if snippet_for_record(path)[1] == env.device]
    others = [path.relative_to(root).as_posix() for path in changed if path not in mine]
    runnable = [path for path in mine if snippet_for_record(path)[0].is_file()]
    verdicts = [Verdict(path.relative_to(root).as_posix(),
                        "its snippet is gone; delete the record (check reports it as an orphan)")
                for path in mine if path not in runnable]
    rels = [snippet_for_record(path)[0].relative_to(root).as_posix() for path in runnable]
    if rels:
        verdicts += compare(root, rels, env, jobs, progress_enabled, cpu_capability)[0]
    return sorted(verdicts, key=lambda v: v.record), others


def verify_paths(root: Path, selectors: list[str] | None, env: Environment, jobs: int,
                 progress_enabled: bool | None = None, cpu_capability: str | None = None,
                 fresh: bool = False) -> tuple[list[Verdict], list[Outcome]]:
    """`snippets.py verify`: re-run the snippets `selectors` name (all of `env.device`'s when
    none) and judge each against its committed record, writing nothing: under a second CPU
    capability, this is how a record that depends on the CPU that made it is found."""
    rels = [s.rel for s in select(root, selectors, env.device, None)]
    return compare(root, rels, env, jobs, progress_enabled, cpu_capability, fresh)


def compare(root: Path, rels: list[str], env: Environment, jobs: int,
            progress_enabled: bool | None = None, cpu_capability: str | None = None,
            fresh: bool = False) -> tuple[list[Verdict], list[Outcome]]:
    """Run the snippets `rels` (relative to `root`) in a scratch copy of snippets/, as a drift
    run is (no committed record is written or marked), under `cpu_capability` (None: the
    host's own), and give a verdict on each record against what its snippet printed, with the
    outcomes themselves (their paths are the snippets', relative to the root)."""
    scratch = Path(tempfile.mkdtemp(prefix="verify-"))
    try:
        copy_without_records(root, scratch)
        wanted = set(rels)
        snippets = [s for s in select(scratch, None, env.device, None) if s.rel in wanted]
        todo, _ = plan(scratch, snippets, env, force=True, all_fresh=fresh)
        # The scratch copy has no records, so `plan` cannot order by duration: the committed
        # records can (the longest first keeps every worker busy to the end).
        took = {rel: record.duration_s for rel in rels
                if (record := _read(Snippet(root / rel, rel).record_path(env.device)))}
        todo.sort(key=lambda job: (-took.get(job.snippet.rel, 1e9), job.snippet.rel))
        outcomes = execute(scratch, todo, env, jobs, Progress(len(todo), enabled=progress_enabled),
                           mark_failures=False, cpu_capability=cpu_capability)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    by_path = {outcome.path: outcome for outcome in outcomes}
    verdicts = []
    for rel in rels:
        snippet = Snippet(root / rel, rel)
        record_rel = snippet.record_path(env.device).relative_to(root).as_posix()
        outcome = by_path.get(rel)
        committed = _read(snippet.record_path(env.device))
        if outcome is None:
            problem = "its snippet does not declare this device; delete the record"
        elif committed is None:
            problem = ("it has no readable record to compare with; record it "
                       "(python scripts/snippets.py run)")
        elif outcome.status not in GOOD:
            problem = f"it does not run now ({outcome.status}: {outcome.message})"
        elif (outcome.status, outcome.error_type) != (committed.status, committed.error_type):
            problem = (f"the record says {committed.status} {committed.error_type}".rstrip()
                       + f", the run ended {outcome.status} {outcome.error_type}".rstrip())
        elif outcome.output != committed.output:
            problem = (f"its output is not what the snippet prints ("
                       f"{first_difference(committed.output, outcome.output)}):\n"
                       + _diff(committed.output, outcome.output, record_rel))
        else:
            problem = ""
        verdicts.append(Verdict(record_rel, problem))
    return sorted(verdicts, key=lambda v: v.record), sorted(outcomes, key=lambda o: o.path)


def _read(path: Path) -> Record | None:
    try:
        return read_record(path) if path.is_file() else None
    except RecordError:
        return None  # damaged: `check` reports it; here there is nothing to compare with


def first_difference(recorded: str, printed: str) -> str:
    """Where two outputs part, in one line: the first line number at which they differ and
    both versions of that line."""
    old, new = recorded.splitlines(), printed.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f"line {number}: the record says {a!r}, the run printed {b!r}"
    number = min(len(old), len(new)) + 1
    if len(old) > len(new):
        return f"line {number}: the record says {old[number - 1]!r}, the run printed nothing more"
    if len(new) > len(old):
        return f"line {number}: the record has no more lines, the run printed {new[number - 1]!r}"
    return "they differ only in the final newline"


def _diff(recorded: str, printed: str, name: str) -> str:
    lines = difflib.unified_diff(recorded.splitlines(keepends=True),
                                 printed.splitlines(keepends=True),
                                 fromfile=f"{name} (committed)", tofile=f"{name} (re-run)")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
