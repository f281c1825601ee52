"""`verify-changed`: re-run every snippet whose record a submission changed, and fail unless each
prints what its record says.

A record's digest (`records.Record.result_digest`) catches a hand edit of its output, but not one
made by someone who also rewrote the digest. This does: the records that differ from a git ref
(the submission's base) are run again, in a scratch copy of snippets/ as a drift run is (no
committed record is written or marked), and each outcome and normalised output is compared with
the committed record. Only the changed records run, so CI can afford it on every submission.
Records of a device this machine cannot run are listed, not judged.
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
from snippet_engine.execution.runner import execute, plan, select
from snippet_engine.protocol import GOOD
from snippet_engine.records.environment import Environment
from snippet_engine.records.record_file import copy_without_records, read_record
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
           progress_enabled: bool | None = None) -> tuple[list[Verdict], list[str]]:
    """(a verdict per changed record of `env.device`, the changed records of other devices)."""
    changed = changed_records(root, since)
    mine = [path for path in changed if snippet_for_record(path)[1] == env.device]
    others = [path.relative_to(root).as_posix() for path in changed if path not in mine]
    runnable = [path for path in mine if snippet_for_record(path)[0].is_file()]
    verdicts = [Verdict(path.relative_to(root).as_posix(),
                        "its snippet is gone; delete the record (check reports it as an orphan)")
                for path in mine if path not in runnable]
    if not runnable:
        return verdicts, others
    scratch = Path(tempfile.mkdtemp(prefix="verify-changed-"))
    try:
        copy_without_records(root, scratch)
        rels = [snippet_for_record(path)[0].relative_to(root).as_posix() for path in runnable]
        snippets = [s for s in select(scratch, None, env.device, None) if s.rel in rels]
        todo, _ = plan(scratch, snippets, env, force=True)
        outcomes = execute(scratch, todo, env, jobs, Progress(len(todo), enabled=progress_enabled),
                           mark_failures=False)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    by_path = {outcome.path: outcome for outcome in outcomes}
    for path, rel in zip(runnable, rels, strict=True):
        record_rel = path.relative_to(root).as_posix()
        outcome = by_path.get(rel)
        committed = read_record(Snippet(root / rel, rel).record_path(env.device))
        if outcome is None or committed is None:
            problem = "its snippet does not declare this device; delete the record"
        elif outcome.status not in GOOD:
            problem = f"it does not run now ({outcome.status}: {outcome.message})"
        elif (outcome.status, outcome.error_type) != (committed.status, committed.error_type):
            problem = (f"the record says {committed.status} {committed.error_type}".rstrip()
                       + f", the run ended {outcome.status} {outcome.error_type}".rstrip())
        elif outcome.output != committed.output:
            problem = "its output is not what the snippet prints:\n" + _diff(
                committed.output, outcome.output, record_rel)
        else:
            problem = ""
        verdicts.append(Verdict(record_rel, problem))
    return sorted(verdicts, key=lambda v: v.record), others


def _diff(recorded: str, printed: str, name: str) -> str:
    lines = difflib.unified_diff(recorded.splitlines(keepends=True),
                                 printed.splitlines(keepends=True),
                                 fromfile=f"{name} (committed)", tofile=f"{name} (re-run)")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
