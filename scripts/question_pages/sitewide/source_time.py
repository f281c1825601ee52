"""When the pages last changed, as a number every clone of one commit agrees on.

The Anki decks stamp every note with this time, and Anki's "update if newer" import overwrites a
reader's own edits of a card whenever the incoming note is newer. So the time must grow when a page
changes and stay put when none does, whatever machine or checkout builds the site:

1. `SOURCE_DATE_EPOCH`, when set (the reproducible-builds convention), wins.
2. Otherwise, when the pages are in a git work tree, the committer time of the last commit that
   touched any of them (`git log -1 --format=%ct -- PAGES`): the same in every clone of a commit,
   however long after the commit it was made. A page changed since that commit (edited, or new and
   not yet committed) counts with its file time, so a local build of an edit is newer too.
3. Outside git (a copy of the sources, a tarball), the newest file time, as before.

A shallow clone (CI's default `fetch-depth: 1`) sees its oldest commit as adding every file, so
there the time is that commit's, later than the pages' real last change; the deploy fetches the
whole history (`fetch-depth: 0` in .github/workflows/deploy.yml) so that it gets the real one.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

from snippet_engine.errors import ProjectError

FALLBACK = 1_767_225_600  # 2026-01-01T00:00:00Z: the time of no pages at all


class SourceTimeError(ProjectError, ValueError):
    """The time could not be read as asked; the message says why and how to fix it."""


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess | None:
    """`git ARGS` in cwd, or None when git is not installed."""
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=60, check=False)
    except FileNotFoundError:
        return None


def _failed(done: subprocess.CompletedProcess, what: str) -> SourceTimeError:
    return SourceTimeError(
        f"`git {what}` failed while reading when the pages last changed: "
        f"{done.stderr.strip() or done.returncode}. Fix the repository (for 'dubious ownership', "
        "`git config --global --add safe.directory <checkout>`), or set SOURCE_DATE_EPOCH to the "
        "last commit's time: SOURCE_DATE_EPOCH=$(git log -1 --format=%ct -- docs)")


def git_time(paths: list[Path]) -> int | None:
    """The time of rule 2 of the module docstring, or None when the files are not in a git work
    tree (or git is not installed)."""
    top_done = _git(["rev-parse", "--show-toplevel"], paths[0].parent)
    if top_done is None:
        return None
    if top_done.returncode != 0:
        if "not a git repository" in top_done.stderr:
            return None
        raise _failed(top_done, "rev-parse --show-toplevel")
    top = Path(top_done.stdout.strip()).resolve()
    try:
        rels = [path.resolve().relative_to(top).as_posix() for path in paths]
    except ValueError:
        return None  # some of them are outside that work tree: not one repository's pages
    log = _git(["log", "-1", "--format=%ct", "--", *rels], top)
    status = _git(["status", "--porcelain", "--untracked-files=all", "-z", "--", *rels], top)
    assert log is not None and status is not None, "git ran a moment ago"
    for done, what in ((log, "log"), (status, "status")):
        if done.returncode != 0:
            raise _failed(done, what)
    times = [int(log.stdout.strip())] if log.stdout.strip() else []
    # `XY path` entries, NUL-separated; a rename adds its old path as the next entry.
    entries = status.stdout.split("\0")
    changed = []
    skip = False
    for entry in entries:
        if skip or not entry:
            skip = False
            continue
        skip = entry[0] in "RC"
        path = top / entry[3:]
        if path.exists():
            changed.append(path)
    times += [int(path.stat().st_mtime) for path in changed]
    return max(times) if times else None


def content_time(paths: Iterable[Path]) -> int:
    """Seconds since 1970 at which the given source files last changed (module docstring)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        if not epoch.isdigit():
            raise SourceTimeError(
                f"SOURCE_DATE_EPOCH is '{epoch}', not a whole number of seconds since 1970. "
                "Unset it, or set it to the last commit's time: "
                "SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)")
        return int(epoch)
    files = sorted(paths)
    if not files:
        return FALLBACK
    committed = git_time(files)
    if committed is not None:
        return committed
    return max(int(path.stat().st_mtime) for path in files)
