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

`kill_marked` is the coordinator's fallback for a worker that had to be killed itself (its
orphans then go to init): every process a worker's snippets start inherits the worker's TMPDIR
in its environment.

Standard library only: the worker imports this.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


def become_subreaper() -> bool:
    """Adopt this process's orphaned descendants; False where the kernel does not allow it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


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
