"""One folder of precompiled C++ headers for every worker and snippet: the one a `python` run by
this user keeps them in, instead of one per worker or snippet.

Every AOTInductor compile (and every C++ kernel `torch.compile` builds on CPU) first precompiles
torch's common headers (`torch._inductor.codecache._precompile_header`): g++ turns them into a
`.gch` file of 100+ MB, 7 to 10 s of one core each here. torch puts it in `_HEADER_DIR`,
`<TMPDIR>/torchinductor_<user>/precompiled_headers`, fixed when `torch._inductor.codecache` is
first imported, and reuses a header found there ("persistent past program runtime", its comment
says): a fresh `python snippet.py` builds each header once per machine, not once per run. The
engine gives every worker and every snippet a TMPDIR of its own, so without this module each
worker paid for the headers again on every run, and a fresh snippet every time.

Here every worker and every snippet's TMPDIR gets `torchinductor_<user>/precompiled_headers` as a
link to `shared_header_dir()`, the folder torch would use in the coordinator's own TMPDIR, and
every snippet reaches it through its own TMPDIR: a fresh one as torch computes it, a forked one
because the worker points `_HEADER_DIR` (fixed in the worker's TMPDIR when it imported
Inductor) at the snippet's own (`worker._own_header_folder`), so that a C++ error names the
folder a fresh `python` would. The path torch computes, and so anything a
snippet could print, is the same string as without the link. Only that one folder is shared: the
rest of `torchinductor_<user>` (and the snippet's own Inductor cache, TORCHINDUCTOR_CACHE_DIR)
stays the snippet's own.

Why sharing cannot change a record: a precompiled header is only an on-disk form of
`#include <header>`. torch names it by a hash of the hashable compiler command line, the sha512
of the fully preprocessed header and the compiler's version, so a header built for other flags,
other torch headers or another compiler is never picked up, and g++ itself refuses (and falls
back to the plain header) a `.gch` built with options that do not match. The compiled model is
the same either way; only the time to build it changes. torch builds each header under a file
lock in the same folder (`locks/`) and skips one that exists, so two workers, or a worker and a
`python` outside the engine, never build the same one at once.

Where the folder cannot be used (it cannot be made or written: a file where a folder should be,
another user's folder; or a lock in it is held, past a few seconds, by a process outside the run:
a `python` stopped with Ctrl-Z mid-compile), the run does without it (`unusable`, say so once):
its snippets build their headers in their own folders, as before this module, and print the same.
Otherwise each snippet would fail (an engine error that marks a good record stale) or wait on
the lock for torch's 600 s lock timeout, past its own timeout. A lock taken by such a process
after the run started is not seen: a snippet building that header still waits for it.

What a snippet could still leave behind for the next: a `.gch` half-written by a compiler that
was killed (the snippet's timeout, a crash, a compile still running when the snippet ended, the
run stopped). The worker removes every `.gch` (clang: `.pch`) written during such a snippet
(`prune_since`), so the next one builds it again (the lock files stay: removing one another
process holds would let two builds race). Where the worker itself is killed outright, the run's
mark (`RunMark`) is left behind, and the next run removes what was written while that run lived.

Standard library only: the worker imports this before torch.
"""

from __future__ import annotations

import fcntl
import getpass
import os
import re
import tempfile
import time
from pathlib import Path

from snippet_engine.execution.reaping import start_time

# The coordinator tells a worker the shared folder in this variable; the worker takes it out of
# its environment before anything else, so no snippet sees it.
HEADERS_VARIABLE = "SNIPPET_SHARED_HEADERS"
# What a header precompiles to: g++ writes `.gch`, clang `.pch` (cpp_builder.CppBuilder).
PRECOMPILED = (".gch", ".pch")
# How long a run waits for a header's lock held outside it: a header takes 7 to 10 s of one core
# to build, so a lock held longer than this is usually a compile that will not end soon.
LOCK_WAIT_S = 5.0


def _user_folder() -> str:
    """`torchinductor_<user>`, named as `torch._inductor.runtime.cache_dir_utils.
    default_cache_dir` names it (copied, since the worker must not import Inductor to ask)."""
    try:
        username = getpass.getuser()
    except (KeyError, ModuleNotFoundError, OSError):
        username = f"uid_{os.getuid()}"
    return "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", username)


def header_dir(tmpdir: str | Path) -> Path:
    """Where torch, with this TMPDIR, looks for precompiled headers (its `_HEADER_DIR`)."""
    return Path(tmpdir) / _user_folder() / "precompiled_headers"


def shared_header_dir() -> Path:
    """The folder every worker and snippet shares: torch's own for this user and this process's
    TMPDIR, where a `python snippet.py` run here keeps its precompiled headers."""
    return header_dir(tempfile.gettempdir())


def link_shared_headers(tmpdir: str | Path, shared: str | Path) -> None:
    """Make torch's header folder under `tmpdir` a link to the `shared` folder."""
    link = header_dir(tmpdir)
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.is_symlink():
        link.symlink_to(shared, target_is_directory=True)


def prune_since(shared: str | Path, since: float) -> list[Path]:
    """Remove the precompiled headers written at or after `since` (time.time()): what a compile
    that was killed may have left half-written. Returns what was removed."""
    removed = []
    for built in Path(shared).rglob("*"):
        if built.suffix not in PRECOMPILED:
            continue
        try:
            if built.stat().st_mtime >= since:
                built.unlink()
                removed.append(built)
        except FileNotFoundError:
            pass
    return removed


def _lock_held(lock: Path) -> bool:
    """Whether another process holds `lock` (torch's FileLock: flock on the file)."""
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # which also releases it
    return False


def unusable(shared: str | Path, wait_s: float = LOCK_WAIT_S) -> str | None:
    """Why this run cannot share `shared`, or None where it can: it can be made and written to,
    and no lock in it is held by another process for more than `wait_s` seconds."""
    shared = Path(shared)
    locks = shared / "locks"  # torch's `_HEADER_LOCK_DIR`, made here as torch would make it
    try:
        locks.mkdir(parents=True, exist_ok=True)
        for folder in (shared, locks):  # os.access is no proof (root, a read-only mount)
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".engine-probe-")
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        return f"cannot be made or written to ({exc.strerror or exc})"
    deadline = time.monotonic() + wait_s
    while True:
        held = [lock.name for lock in sorted(locks.glob("*.lock")) if _lock_held(lock)]
        if not held:
            return None
        if time.monotonic() >= deadline:
            return (f"has a lock held by a process outside this run for over {wait_s:.0f} s "
                    f"({', '.join(held)})")
        time.sleep(0.1)


class RunMark:
    """A file in the shared folder for as long as a run (a worker pool) may compile into it.

    A mark left by a run that is gone (its coordinator was killed outright, so its workers could
    not clean up after a compiler killed mid-header) tells the next run to remove every
    precompiled header written since that run began. Where /proc cannot be read, nothing is
    marked and nothing pruned."""

    FOLDER = "engine-runs"

    def __init__(self, shared: str | Path) -> None:
        self.shared = Path(shared)
        started = start_time(os.getpid())
        self.path = None if started is None else \
            self.shared / self.FOLDER / f"{os.getpid()}-{started}"

    def claim(self) -> list[Path]:
        """Prune after runs that are gone, then mark this one. Returns what was pruned."""
        self.shared.mkdir(parents=True, exist_ok=True)
        if self.path is None:
            return []
        removed = prune_abandoned(self.shared)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.touch()
        return removed

    def release(self) -> None:
        if self.path is not None:
            try:
                self.path.unlink(missing_ok=True)
            except OSError:
                pass  # the folder went (or became a file) during the run: nothing to release


def prune_abandoned(shared: str | Path) -> list[Path]:
    """Remove the headers written since each run that left its mark and is gone, and its mark."""
    removed: list[Path] = []
    for mark in sorted((Path(shared) / RunMark.FOLDER).glob("*-*")):
        pid, _, started = mark.name.partition("-")
        if pid.isdigit() and start_time(int(pid)) == started:
            continue  # still running
        try:
            since = mark.stat().st_mtime
        except FileNotFoundError:
            continue
        removed += prune_since(shared, since - 1)  # mtime's coarseness: a second early is safe
        mark.unlink(missing_ok=True)
    return removed
