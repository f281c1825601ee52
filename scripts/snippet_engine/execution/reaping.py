"""Nothing a snippet starts outlives it: the worker adopts every orphan and kills them all.

A snippet's process group is not enough: a helper started with `start_new_session=True` (a demo
server, a daemonised tool), or one that double-forks, leaves the group and the session, and is
re-parented to init when its parent exits. Linux lets an ordinary user keep such orphans instead:
a process marked as a *child subreaper* (`prctl(PR_SET_CHILD_SUBREAPER)`, Linux 3.4, no
privilege needed) becomes the new parent of every orphaned descendant. The warm worker marks
itself so. Every process a snippet started is then, while it lives, a descendant of the worker,
and once the snippet has ended the worker kills its whole tree of descendants and reaps them
until it has no child left: there is then no descendant left either, however they left their
group or session. The mark is not inherited across fork, so a snippet's own process is not a
subreaper.

`kill_marked` is the coordinator's fallback for a worker that had to be killed or died on its
own (its orphans then go to init): every process a worker's snippets start inherits the worker's
TMPDIR in its environment.

When the coordinator itself goes without stopping its workers (SIGKILL, or a `mkdocs serve`
whose terminal was closed), each worker sees it go (its parent changes: `coordinator_gone`) and
cleans up as on a stop, its own folder included; a snippet's process dies with its worker
(`die_with_parent`). Where the worker was killed too, its folder carries its coordinator's pid and
start time (`mark_owner`), and the next run kills what is left of it and removes the folder
(`remove_abandoned`).

Standard library only: the worker imports this.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_PR_SET_CHILD_SUBREAPER = 36
# In each worker's folder: `<pid>-<start>` of the coordinator that made it.
OWNER_FILE = "engine-owner"
WORKER_PREFIX = "snippet-worker-"


def become_subreaper() -> bool:
    """Adopt this process's orphaned descendants; False where the kernel does not allow it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(signum: int = signal.SIGKILL) -> bool:
    """Have the kernel send `signum` to this process when the thread that forked it ends: set in a
    snippet's process, forked by its worker's main thread, so that it dies with the worker
    (kept across exec, not inherited by the snippet's own children). Not for the workers: the
    coordinator starts them from threads that end before the workers should (a pool keeps them
    warm between runs), which would kill them. False where the kernel does not allow it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def start_time(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot), or None where it is gone: a pid
    alone may have been given to another process since."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, after the command's parentheses


def _parents() -> dict[int, int]:
    """{pid: parent pid} of every process now running."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
            found[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every live descendant of `pid`, parents before their children."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found, queue = [], list(children.get(pid, []))
    while queue:
        current = queue.pop(0)
        found.append(current)
        queue.extend(children.get(current, []))
    return found


def signal_descendants(signum: int = signal.SIGKILL) -> None:
    """Send `signum` to every descendant of this process, without reaping any."""
    for pid in descendants(os.getpid()):
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def kill_descendants(deadline_s: float = 10.0) -> None:
    """Kill every descendant of this process and reap its children until it has none left
    (a subreaper adopts the grandchildren as their parents die, and reaps them too)."""
    end = time.monotonic() + deadline_s
    while True:
        signal_descendants(signal.SIGKILL)
        try:
            while True:
                pid, _ = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
        except ChildProcessError:
            return  # no child, so no descendant
        if time.monotonic() > end:
            return  # one stuck in the kernel (uninterruptible): nothing more to do
        time.sleep(0.01)


def kill_marked(mark: str) -> list[int]:
    """SIGKILL every process of this user whose environment holds `mark`; their pids."""
    needle, killed = mark.encode(), []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if needle in environ.read_bytes():
                pid = int(environ.parent.name)
                if pid != os.getpid():
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
        except (OSError, ValueError):
            continue
    return killed


def mark_owner(folder: str | Path) -> None:
    """Write into a worker's `folder` which process (this one, the coordinator) owns it."""
    since = start_time(os.getpid())
    if since is not None:
        (Path(folder) / OWNER_FILE).write_text(f"{os.getpid()}-{since}")


def _owner_alive(folder: Path) -> bool | None:
    """Whether the coordinator that made `folder` still runs; None where the folder names none
    (another engine's, or one being made right now)."""
    try:
        pid, _, since = (folder / OWNER_FILE).read_text().strip().partition("-")
    except OSError:
        return None
    if not pid.isdigit():
        return None
    return start_time(int(pid)) == since


def remove_abandoned(tmpdir: str | Path) -> list[Path]:
    """Kill what is left of each worker of a coordinator that is gone (killed together with its
    workers, so none of them could clean up: a snippet's helper in a session of its own, a
    worker stopped but not dead) and remove the worker's folder. Returns the folders removed."""
    removed = []
    for folder in sorted(Path(tmpdir).glob(WORKER_PREFIX + "*")):
        if not folder.is_dir() or folder.is_symlink() or _owner_alive(folder) is not False:
            continue
        kill_marked(str(folder))
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
