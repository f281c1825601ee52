"""A snippet's own pid namespace and its own view of the checkout, where Linux lets a user make them.

Why a pid namespace (issue 40, item 4): a process id differs on every run, and text rules can
replace it only where it is printed as one ("pid 4242"); a `logging` format's `%(process)d`, a
bare `print(os.getpid())` or a pid inside a torch message cannot be told from a number. In a pid
namespace of its own the snippet's pid is the same on every run (`SNIPPET_PID`), and so are the
pids of the processes it starts, wherever they are printed.

Why a mount namespace (item 5): the snippet runs from its own path in the checkout, as
`python snippets/t/x.py` does (its `__file__`, its helpers' `__file__`, `sys.path[0]`, the files
beside it are the checkout's), while the checkout it sees is an overlay: it reads the checkout,
and what it writes there goes to a folder of the snippet's own, removed with it. So a snippet or
a helper that writes beside itself cannot change the repository or another snippet's record,
and its records read exactly as a fresh `python` run from the checkout prints them.

How, without privilege: `unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID)` in the snippet's
process (a user namespace lets an ordinary user own the other two; only the user's own uid and
gid are mapped into it, so ids read as before). The process that calls it stays where it is (C,
the process the worker forked and watches); its next child is pid 1 of the new namespace, a small
init (I) that mounts the namespace's own /proc (so `/proc/<os.getpid()>` is the snippet's) and
forks the snippet's process (S, pid `SNIPPET_PID`). Not pid 1 itself: the kernel gives a
namespace's init other signal rules (a signal it has no handler for is dropped, so
`os.kill(os.getpid(), SIGTERM)` or `abort()` would not end it) and makes it the parent of every
orphan. I reaps, tells C how S ended (its exit status and peak memory) the moment it does, and
exits once nothing else runs in the namespace; C ends as S ended (the same exit code or signal),
so the worker judges it as before. A helper S left running keeps I alive: C exits anyway, I is
adopted by the worker (the child subreaper, `reaping`), which gives the helper its usual 2 s to
finish printing and then kills I, and with it (the kernel does) everything in the namespace.

What it costs: two more forks of the warm worker per snippet (C's init and the snippet's
process), and the namespaces' set-up and teardown: about 40 ms a snippet on the 2-core machine
when idle, 150 ms and more when its cores are contended (issue 40's measurements). A cheaper
layout (an exec'd init that needs no copy of the worker's memory, given CAP_SYS_ADMIN as an
ambient capability to set `ns_last_pid`) would save one of the two forks.

What differs, inside, from a shell: `/proc` lists the namespace's processes only; the snippet's
parent is pid 1; a file owned by another user than the one running (root's `/usr`, for a user
who is not root) reads as owned by 65534 (`nobody`), as do supplementary groups; a write into a
checkout folder that another user owns fails (the overlay cannot copy up its owner). None of it
shows in a record of this project.

Where any of this is refused (no user namespaces, a container's seccomp profile, Ubuntu's
AppArmor restriction, `SNIPPET_NAMESPACES=0`), the worker's probe (`available`) says so once and
every snippet runs as before: a copy of it and its helpers in its own folder, whose path the
worker writes back as the checkout's, and its pid replaced by the text rule
(`normalize._own_pid`). Where only the overlay is refused (the checkout's path holds a `:` or a
`,`, or the temporary folder is inside it), that snippet runs as a copy, still in its namespace.

Standard library only: the worker imports this before torch.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
from pathlib import Path
from typing import NoReturn

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
_CAPABILITY_VERSION_3 = 0x20080522

# The snippet's pid in its namespace, set through the namespace's `ns_last_pid` before its init
# forks it (the processes it starts follow it: 4243, ...). Not 2, the next pid after the init's:
# the text rule for a pid printed as one (`normalize._own_pid`) still runs, and a small number
# after "process" is often something else ("process 2 terminated", a rank of mp.spawn's). A
# machine where it cannot be set has no namespaces here (`available`).
SNIPPET_PID = 4242
# "0" in the worker's environment: behave as if the kernel refused (the fallback's tests). The
# worker takes it out of its environment, so no snippet sees it.
DISABLE_VARIABLE = "SNIPPET_NAMESPACES"
# Written by C into the snippet's folder for the worker: whether it runs in a namespace, and S's
# peak memory (the worker's wait4 on C does not include it when I outlives C).
STATE_FILE = "namespace.json"
MAXRSS_FILE = "namespace-maxrss"


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None) -> None:
    def c(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    _check(_libc().mount(c(source), c(target), c(fstype), ctypes.c_ulong(flags), c(data)),
           f"mount {fstype or ''} on {target}")


def _enter() -> bool:
    """This process into a new user and mount namespace, its children into a new pid namespace;
    False, with nothing changed, where the kernel refuses (unshare is all or nothing)."""
    uid, gid = os.getuid(), os.getgid()
    if _libc().unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) != 0:
        return False
    # Only the user's own ids, as themselves (setgroups must be denied first to map a gid).
    if os.path.exists("/proc/self/setgroups"):
        Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
    Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1")
    # Nothing mounted here propagates back to the machine.
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    return True


def _overlay(checkout: str, scratch: Path) -> bool:
    """The checkout, as this namespace sees it, as an overlay whose writes land in `scratch`."""
    upper, work = scratch / "upper", scratch / "work"
    if any(mark in str(path) for path in (checkout, upper, work) for mark in ":,\\"):
        return False  # overlayfs's option syntax
    if os.path.commonpath([os.path.realpath(scratch), os.path.realpath(checkout)]) == \
            os.path.realpath(checkout):
        return False  # the snippet's folder inside the checkout: layers may not overlap
    upper.mkdir(parents=True)
    work.mkdir()
    try:
        _mount("overlay", checkout, "overlay", 0,
               f"lowerdir={checkout},upperdir={upper},workdir={work}")
    except OSError:
        return False
    return True


def _drop_capabilities() -> None:
    """The user namespace gave this process every capability inside it: an ordinary user's
    snippet drops them, to have the rights it has in a shell, and as the processes it execs have
    them (none). Root keeps them, as root's processes (and the snippet's exec'd children, uid 0
    in the namespace) have them: with fewer than its children, it could not read their
    `/proc/<pid>/environ`."""
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _libc().capset(ctypes.byref(header), data)


def _keep_only(fd: int) -> None:
    """C and I hold nothing of the snippet's (its output pipe must close when it and what it
    started are done): every other descriptor is closed, 0 to 2 lead nowhere."""
    null = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        if target != fd:
            os.dup2(null, target)
    os.closerange(3, fd)
    os.closerange(fd + 1, 1 << 16)
    if null > 2 and null != fd:
        try:
            os.close(null)
        except OSError:
            pass


def _no_other_child() -> bool:
    """Whether this process (the namespace's init) has no child left, reaping any that ended."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            return False


def _be_init(snippet: int, report: int) -> NoReturn:
    """I, pid 1: reap every process of the namespace; say how the snippet ended as soon as it
    has; exit once nothing else is left (which ends the namespace)."""
    try:
        _keep_only(report)
        while True:
            try:
                pid, status, usage = os.wait4(-1, 0)
            except ChildProcessError:
                os._exit(0)
            if pid == snippet:
                alone = _no_other_child()
                os.write(report, f"{status} {usage.ru_maxrss} {int(alone)}\n".encode())
                os.close(report)
                if alone:
                    os._exit(0)
    finally:
        os._exit(70)


def _end_as(status: int) -> NoReturn:
    """C ends as the snippet ended, so the worker sees its exit code or its signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 70)


def _relay(init: int, report: int, task_dir: Path) -> NoReturn:
    """C: wait for I's word on the snippet's end and end the same way."""
    try:
        _keep_only(report)
        data = b""
        while chunk := os.read(report, 256):
            data += chunk
        if not data:  # I died first (killed with the rest at a timeout): nothing to relay
            os._exit(70)
        status, maxrss, alone = (int(field) for field in data.split())
        (task_dir / MAXRSS_FILE).write_text(str(maxrss))
        if alone:
            os.waitpid(init, 0)  # I is exiting: reap it, or the worker would see it still there
        _end_as(status)
    finally:
        os._exit(70)


def isolate(task_dir: Path, checkout: str | None) -> bool | None:
    """Put the snippet's process in namespaces of its own. Called in C; returns only in S.

    None where no namespace could be made (nothing changed; C runs the snippet itself); else
    whether the checkout is the overlay (True: run the snippet from its own path). A failure
    once the namespaces exist raises in S's stead: C, in its new namespaces, cannot undo them."""
    if not _enter():
        return None
    overlaid = checkout is not None and _overlay(checkout, task_dir / "overlay")
    read_end, write_end = os.pipe()
    init = os.fork()
    if init == 0:
        try:
            os.close(read_end)
            _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
            try:
                Path("/proc/sys/kernel/ns_last_pid").write_text(str(SNIPPET_PID - 1))
            except OSError:
                pass  # the probe finds the snippet at another pid: no namespaces
            snippet = os.fork()
            if snippet != 0:
                (task_dir / STATE_FILE).write_text(json.dumps({"pid": snippet,
                                                               "overlay": overlaid}))
        except BaseException:
            os._exit(70)
        if snippet == 0:
            os.close(write_end)
            if os.getuid() != 0:
                _drop_capabilities()
            return overlaid
        _be_init(snippet, write_end)
    os.close(write_end)
    _relay(init, read_end, task_dir)


def available() -> bool:
    """Whether this machine lets this process's children have namespaces of their own: the
    whole sequence, tried once in a throwaway child (whose snippet just exits)."""
    if os.environ.pop(DISABLE_VARIABLE, None) == "0":
        return False
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="namespace-probe-"))
    try:
        pid = os.fork()
        if pid == 0:
            try:
                ran = isolate(scratch, None)
                os._exit(0 if ran is not None and os.getpid() == SNIPPET_PID else 1)
            finally:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    finally:
        import shutil

        shutil.rmtree(scratch, ignore_errors=True)


def make_removable(folder: Path | str) -> None:
    """Let `shutil.rmtree` remove the snippets' folders under `folder` (a snippet's, or a
    worker's holding them): the overlay's own work folder is made by the kernel with mode 000,
    which an ordinary user cannot list, so rmtree would leave it, and every folder above it."""
    for work in [*Path(folder).glob("overlay/work/work"), *Path(folder).glob("*/overlay/work/work")]:
        try:
            work.chmod(0o700)
        except OSError:
            pass


def state(task_dir: Path) -> dict:
    """What C wrote about the snippet's namespace; {} where it ran without one."""
    try:
        return json.loads((task_dir / STATE_FILE).read_text())
    except (OSError, ValueError):
        return {}


def maxrss_kib(task_dir: Path) -> int:
    """The snippet's own peak memory as its init saw it; 0 where it ran without a namespace."""
    try:
        return int((task_dir / MAXRSS_FILE).read_text())
    except (OSError, ValueError):
        return 0
