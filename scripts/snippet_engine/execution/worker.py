"""A warm worker: imports torch and warms up export once, then forks a fresh child per snippet.

The worker never runs user code itself, so every child starts from the same clean, warm state,
and the cost of importing torch (seconds) is paid once per worker instead of once per snippet.
A snippet that opts out (`#| fresh: true`) gets fork+exec of a brand-new interpreter instead.
The worker also enforces the timeout and the output cap, and, as the child subreaper of whatever
a snippet starts (`reaping`), kills every process the snippet left behind once it has ended,
however it ended, and removes its temporary folder, even when the run is stopped. The one thing
its snippets share is torch's folder of precompiled C++ headers (`headers`), which holds only
what a compile with the same flags, headers and compiler would build again.

Protocol: one JSON `Task` per line on stdin; one JSON `Reply` line back on stdout per task, after
a first `{"ready": ...}` line (the messages are described in `protocol`). Each task goes through
three steps: `_spawn` forks the snippet's process, `_collect` watches it to its end, `_reply`
judges how it ended (`verdict.classify`). The warm-up of each kind of worker is `warm_ups`.
Standard library only, plus torch.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import select
import selectors
import shutil
import signal
import socket
import sys
import sysconfig
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from snippet_engine.execution import namespaces, warm_ups
from snippet_engine.execution.headers import HEADERS_VARIABLE, link_shared_headers, prune_since
from snippet_engine.execution.reaping import (
    WORKER_PREFIX,
    become_subreaper,
    descendants,
    die_with_parent,
    kill_descendants,
    signal_descendants,
)
from snippet_engine.execution.verdict import OUTPUT_CAP, classify
from snippet_engine.protocol import (
    WARM_UP_VARIABLE,
    ChildResult,
    ChildTask,
    KillReason,
    Reply,
    Task,
)

if TYPE_CHECKING:
    import resource

# Where this interpreter lives, for the coordinator to normalise paths with: a drift run's
# interpreter is not the coordinator's.
INTERPRETER = {**{name: sysconfig.get_paths()[name]
                  for name in ("purelib", "platlib", "stdlib", "platstdlib", "include",
                               "platinclude")},
               "executable": sys.executable, "prefix": sys.prefix, "base_prefix": sys.base_prefix}
CHILD_SCRIPT = str(Path(__file__).with_name("child.py"))
_current_child: int | None = None
_current_task_dir: Path | None = None  # removed on the way out, if a stop signal comes mid-task
_protocol_fd: int | None = None
_shared_headers: str | None = None  # the shared precompiled-header folder (`headers`), if any
_namespaces = False  # whether this machine gives each snippet namespaces of its own (`namespaces`)
# A record names neither a snippet's nor a helper's copy: only these are copied beside it (its
# helpers and data files; not other snippets, and never a record).
_RECORD = re.compile(r"\.(?:cpu|cuda)\.txt$")
_current_started_at: float | None = None  # time.time() when the running snippet was forked
_coordinator: int | None = None  # the parent pid: another one means the coordinator is gone
# The warning filters as they stand after the warm-up: the interpreter's defaults plus what torch
# and its dependencies add when imported, exactly what a fresh process has once it has imported
# torch. Every child starts from these, whatever the warm-up printed or a previous child did.
_warm_filters: list = []


def _kill_group(pid: int | None) -> None:
    """The snippet's process group (it called setsid): all that can be found of what it started
    where the kernel refused to make the worker a subreaper."""
    if pid is not None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _terminate(signum: int, frame: object) -> NoReturn:
    """The coordinator stops this worker (Ctrl-C or SIGTERM of the run): the running snippet and
    everything it started go first, then its folder."""
    _kill_group(_current_child)
    kill_descendants()
    if _shared_headers is not None and _current_started_at is not None:
        prune_since(_shared_headers, _current_started_at)  # a compiler may have died mid-header
    if _current_task_dir is not None:
        namespaces.make_removable(_current_task_dir)
        shutil.rmtree(_current_task_dir, ignore_errors=True)
    os._exit(128 + signum)


def _coordinator_gone() -> bool:
    """Whether the coordinator went without stopping this worker (SIGKILL, a closed terminal of a
    `mkdocs serve`): its orphan has a new parent (init, or a subreaper), or the pipe of its tasks
    has no writer left (which holds in a pid namespace too, where the parent's pid reads 0)."""
    if _coordinator is not None and os.getppid() != _coordinator:
        return True
    try:
        hung_up = select.poll()
        hung_up.register(0, select.POLLHUP)
        return any(events & select.POLLHUP for _, events in hung_up.poll(0))
    except (OSError, ValueError):
        return False


def _abandoned() -> NoReturn:
    """No one is left to send a task, read a reply or clean up after this worker: stop as on a
    SIGTERM, and remove the worker's own folder (its TMPDIR), which the coordinator would have."""
    own = os.environ.get("TMPDIR", "")
    if Path(own).name.startswith(WORKER_PREFIX):  # never a folder the worker did not get
        global _current_task_dir
        _current_task_dir = Path(own)  # holds the running snippet's folder
    _terminate(signal.SIGHUP, None)


def _prepare_child_env(task: ChildTask, task_dir: Path) -> None:
    """Environment of the snippet's process: same for forked and fresh children."""
    os.environ["SNIPPET_DEVICE"] = task["device"]
    os.environ["TMPDIR"] = str(task_dir / "tmp")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(task_dir / "cache" / "inductor")
    os.environ["TRITON_CACHE_DIR"] = str(task_dir / "cache" / "triton")
    if task["port"]:
        os.environ["MASTER_PORT"] = task["port"]
    tempfile.tempdir = None
    _own_header_folder()
    warnings.filters[:] = _warm_filters  # type: ignore[index]
    warnings.onceregistry.clear()  # type: ignore[attr-defined]
    warnings._filters_mutated()  # type: ignore[attr-defined]  # forget warnings shown during warm-up


def _own_header_folder() -> None:
    """A forked compile snippet's precompiled-header folder is its own TMPDIR's, as a fresh
    `python`'s is: Inductor fixed `_HEADER_DIR` when the worker imported it, in the worker's
    random TMPDIR, and a C++ compile error names that folder. Both lead to the shared folder
    (`headers`: `_spawn` links it in every snippet's TMPDIR)."""
    codecache = sys.modules.get("torch._inductor.codecache")
    if codecache is None or not hasattr(codecache, "_HEADER_DIR"):
        return
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    folder = os.path.join(default_cache_dir(), "precompiled_headers")
    setattr(codecache, "_HEADER_DIR", folder)  # noqa: B010 - a module global torch reads
    setattr(codecache, "_HEADER_LOCK_DIR", os.path.join(folder, "locks"))  # noqa: B010


def _checkout(task: Task) -> Path:
    return Path(task["snippets_root"]).parent


def _place_copy(task: ChildTask) -> None:
    """Where the snippet cannot run from the checkout through an overlay: a copy of it in its
    own folder, with what `python snippet.py` finds beside it (its helpers, `_*.py`, and its
    data files, here and in the snippets folder), at the same paths relative to the checkout
    (`source_root`), so that its helpers' `__file__` and `sys.path[0]` are copies too and the
    worker maps one folder back to the checkout."""
    original, copy = Path(task["path"]), Path(task["copy"])
    snippets_root = Path(task["snippets_root"])
    root_copy = Path(task["source_root"]) / snippets_root.relative_to(_checkout(task))
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(original, copy)
    for folder, mirror in ((original.parent, copy.parent), (snippets_root, root_copy)):
        for entry in os.scandir(folder):
            beside = (entry.name.startswith("_") if entry.name.endswith(".py")
                      else not _RECORD.search(entry.name))
            if beside and entry.is_file() and not (mirror / entry.name).exists():
                mirror.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(entry.path, mirror / entry.name)


@dataclass(frozen=True)
class _Spawned:
    """A snippet's process that is running: what the worker needs to watch it and clean up."""

    task: ChildTask
    task_dir: Path  # the snippet's own temporary folder (work/, tmp/, its caches), removed after
    pid: int  # also its process group: the child calls setsid()
    read_fd: int  # the read end of the pipe its fds 1 and 2 write to
    started: float  # time.monotonic() just before the fork
    started_at: float  # time.time() then, to find the files it wrote in the shared headers


@dataclass(frozen=True)
class _Ended:
    """How a snippet's process ended, as the worker saw it from outside."""

    captured: bytes  # what it printed, up to a little past the cap
    status_word: int | None  # as os.wait4 gives it; None when it could not be reaped
    rusage: resource.struct_rusage | None
    killed_for: KillReason | None
    duration: float  # seconds from the fork to its exit
    ended_at: float  # time.time() once it and what it started had stopped printing


def _free_port() -> str:
    """A TCP port no one listens on now, from the kernel's ephemeral range."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("", 0))
        return str(probe.getsockname()[1])


def _as_default_port(text: str, task: ChildTask) -> str:
    """The port the worker gave the snippet, written as the default it would have used alone
    (the record must not depend on which port was free). A five-digit number from the
    ephemeral range that the snippet printed for another reason would be rewritten too."""
    if not task["port"] or not task["port_default"]:
        return text
    return re.sub(rf"(?<!\d){task['port']}(?!\d)", task["port_default"], text)


def _spawn(task: Task) -> _Spawned:
    """Give the snippet a folder of its own and fork its process (which, for a fresh task, execs
    a new interpreter)."""
    global _current_child, _current_task_dir, _current_started_at
    task_dir = Path(tempfile.mkdtemp(prefix="snippet-"))
    _current_task_dir = task_dir
    work = task_dir / "work"
    for sub in (work, task_dir / "tmp", task_dir / "source"):
        sub.mkdir()
    if _shared_headers is not None:
        link_shared_headers(task_dir / "tmp", _shared_headers)
    if warm_ups.isa_probes is not None and not task["fresh"]:  # only a compile worker has them
        shutil.copytree(warm_ups.isa_probes, task_dir / "cache" / "inductor",
                        ignore=shutil.ignore_patterns("locks"))
    source_root = task_dir / "source"  # placed by the child, only if it needs a copy
    copy = source_root / Path(task["path"]).relative_to(_checkout(task))
    child_task = ChildTask(**task, cwd=str(work), copy=str(copy), source_root=str(source_root),
                           result=str(task_dir / "result.json"),
                           port=_free_port() if task["port_default"] else None)
    task_file = task_dir / "task.json"
    task_file.write_text(json.dumps(child_task))

    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    started, started_at = time.monotonic(), time.time()
    _current_started_at = started_at
    worker = os.getpid()
    pid = os.fork()
    if pid == 0:
        _become_child(child_task, task_dir, task_file, read_fd, write_fd, worker)
    _current_child = pid
    os.close(write_fd)
    return _Spawned(child_task, task_dir, pid, read_fd, started, started_at)


def _become_child(task: ChildTask, task_dir: Path, task_file: Path, read_fd: int,
                  write_fd: int, worker: int) -> NoReturn:
    """The forked process: its own session, the protocol pipe closed, then the snippet, run here
    or in a fresh interpreter. Never returns, even if starting the snippet fails."""
    try:
        os.setsid()
        die_with_parent()  # a worker killed outright takes its running snippet with it
        if os.getppid() != worker:  # it died before the line above
            os._exit(71)
        # As a fresh `python` has them: not the worker's handlers (a SIGTERM to the snippet must
        # not run the worker's clean-up), and Ctrl-C raising KeyboardInterrupt.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL if task["fresh"] else signal.default_int_handler)
        os.close(read_fd)
        if _protocol_fd is not None:
            os.close(_protocol_fd)
        _prepare_child_env(task, task_dir)
        # Returns in the snippet's own process, in namespaces of its own where they can be made.
        overlaid = namespaces.isolate(task_dir, str(_checkout(task))) if _namespaces else None
        if overlaid:  # run from the checkout's own path: the checkout it sees is an overlay
            task = ChildTask(**{**task, "copy": task["path"],
                                "source_root": str(_checkout(task))})
            task_file.write_text(json.dumps(task))
        else:
            _place_copy(task)
        if task["fresh"]:
            os.dup2(write_fd, 1)
            os.dup2(write_fd, 2)
            os.close(write_fd)
            os.execv(sys.executable, [sys.executable, CHILD_SCRIPT, str(task_file)])
        from snippet_engine.execution.child import execute

        execute(task, capture_fd=write_fd)
    finally:
        os._exit(71)


def _collect(spawned: _Spawned) -> _Ended:
    """Read what the process prints until it exits, killing it and everything it started at the
    timeout or once it has printed more than the cap; then kill whatever it left running."""
    global _current_child, _current_started_at
    pid, read_fd, started = spawned.pid, spawned.read_fd, spawned.started
    captured = bytearray()
    killed_for: KillReason | None = None
    status_word = None
    rusage = None
    deadline = started + float(spawned.task["timeout"])
    selector = selectors.DefaultSelector()
    selector.register(read_fd, selectors.EVENT_READ)
    pipe_open = True
    exited_at: float | None = None
    while True:
        if _coordinator_gone():
            _abandoned()
        if status_word is None:
            waited, status, usage = os.wait4(pid, os.WNOHANG)
            if waited == pid:
                status_word, rusage, exited_at = status, usage, time.monotonic()
        # Once it has exited, a grandchild may still hold the pipe open: wait 2 s at most.
        if exited_at is not None and (not pipe_open or time.monotonic() - exited_at > 2.0):
            break
        if status_word is None and killed_for is None:
            if time.monotonic() > deadline:
                killed_for = "timeout"
            elif len(captured) > OUTPUT_CAP:
                killed_for = "cap"
            if killed_for:
                _kill_group(pid)
                signal_descendants(signal.SIGKILL)  # reaped below: wait4 still gives its status
        if pipe_open:
            for _key, _ in selector.select(timeout=0.05):
                chunk = os.read(read_fd, 65536)
                if not chunk:
                    pipe_open = False
                    selector.unregister(read_fd)
                elif len(captured) <= OUTPUT_CAP:
                    captured += chunk
        else:
            time.sleep(0.02)
    duration = (exited_at or time.monotonic()) - started
    selector.close()
    os.close(read_fd)
    _kill_group(pid)
    left_running = bool(descendants(os.getpid()))
    kill_descendants()  # whatever the snippet left running goes with it, wherever it went
    _current_child = _current_started_at = None
    cut_short = killed_for is not None or status_word is None or os.WIFSIGNALED(status_word)
    if _shared_headers is not None and (cut_short or left_running):
        # A compiler it started may have been killed mid-header: the next snippet builds again.
        prune_since(_shared_headers, spawned.started_at)
    return _Ended(bytes(captured), status_word, rusage, killed_for, duration, time.time())


def _torch_init() -> str | None:
    """torch's `__init__.py`, found without importing torch: a CUDA run's worker never does."""
    found = getattr(sys.modules.get("torch"), "__file__", None)
    if found is None:
        try:
            spec = importlib.util.find_spec("torch")
        except (ImportError, ValueError):
            spec = None
        found = spec.origin if spec is not None else None
    return found


def _as_original(text: str, task: ChildTask) -> str:
    """What the snippet printed, with its copy's path written as the original's: a traceback, a
    graph-break log or a printed `__file__` reads as `python snippet.py` prints it. The copy's
    folder stands for the checkout (`_place_copy`), for the snippet and its helpers alike;
    torch's short form of a path (relative to the folder it shares with torch's install,
    `torch.utils._traceback.shorten_filename`) is mapped too. Nothing to do for a snippet that
    ran from the checkout itself (`namespaces`)."""
    copy_root, checkout = Path(task["source_root"]), _checkout(task)
    pairs = [(str(variant), str(checkout)) for variant in {copy_root, copy_root.resolve()}
             if variant != checkout]
    torch_init = _torch_init()
    if torch_init:
        torch_dir = os.path.dirname(torch_init)  # the base torch shortens against
        for path, meant in list(pairs):
            try:
                short, short_meant = (p[len(os.path.commonpath([p, torch_dir])) + 1:]
                                      for p in (path, meant))
            except ValueError:
                continue
            if short and short != path:
                pairs.append((short, short_meant))
    for path, meant in sorted(pairs, key=lambda pair: len(pair[0]), reverse=True):
        text = text.replace(path, meant)
    return text


def _reply(spawned: _Spawned, ended: _Ended) -> Reply:
    """The answer for the coordinator: what was printed, what it cost, and the verdict; the
    snippet's folder is removed."""
    task_dir = spawned.task_dir
    try:
        child_result: ChildResult | None = json.loads((task_dir / "result.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        child_result = None
    output = _as_default_port(_as_original(
        ended.captured[:OUTPUT_CAP].decode("utf-8", errors="replace"), spawned.task), spawned.task)
    if child_result is not None and "summary" in child_result:
        child_result["summary"] = _as_default_port(
            _as_original(child_result["summary"], spawned.task), spawned.task)
    # In a namespace (`namespaces`) the snippet's pid is the same on every run, and its init
    # saw its peak memory.
    pid = namespaces.state(task_dir).get("pid", spawned.pid)
    maxrss = max(ended.rusage.ru_maxrss if ended.rusage else 0, namespaces.maxrss_kib(task_dir))
    reply = Reply(
        id=spawned.task["id"], output=output, duration=ended.duration, maxrss_kib=maxrss,
        task_dir=str(task_dir), work_dir=spawned.task["cwd"], pid=pid,
        interpreter=INTERPRETER,
        started_at=spawned.started_at, ended_at=ended.ended_at,
        **classify(spawned.task, ended.status_word, ended.killed_for, child_result),
    )
    namespaces.make_removable(task_dir)
    shutil.rmtree(task_dir, ignore_errors=True)
    global _current_task_dir
    _current_task_dir = None
    return reply


def _showed_warnings(spawned: _Spawned) -> bool:
    """A forked snippet that showed a warning: a fresh process may show it more often
    (`child._count_warnings_shown`)."""
    try:
        result = json.loads((spawned.task_dir / "result.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return False
    return bool(result.get("warnings_shown"))


def run_task(task: Task) -> Reply:
    """Run one snippet in a process of its own and say what it did; a forked one that showed a
    warning again in a fresh interpreter, whose answer is the one recorded."""
    spawned = _spawn(task)
    ended = _collect(spawned)
    if not task["fresh"] and _showed_warnings(spawned):
        shutil.rmtree(spawned.task_dir, ignore_errors=True)
        return run_task({**task, "fresh": True})
    return _reply(spawned, ended)


def main() -> None:
    global _coordinator
    _coordinator = os.getppid()
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the coordinator decides when to stop us
    become_subreaper()  # where the kernel refuses, the process group is still killed (below)
    global _protocol_fd, _shared_headers, _namespaces
    _namespaces = namespaces.available()  # before the warm-up: a small process to fork
    _shared_headers = os.environ.pop(HEADERS_VARIABLE, None)
    if _shared_headers is not None:  # before the warm-up imports Inductor and fixes its folder
        link_shared_headers(tempfile.gettempdir(), _shared_headers)
    _protocol_fd = os.dup(1)
    protocol = os.fdopen(_protocol_fd, "w", buffering=1)
    os.dup2(2, 1)  # anything the warm-up prints goes to stderr, not into the protocol
    # Popped: a snippet (forked, or a fresh one that inherits this environment) must not see it.
    warm_ups.WARM_UPS[os.environ.pop(WARM_UP_VARIABLE, "export")]()
    _warm_filters[:] = warnings.filters
    try:
        protocol.write(json.dumps({"ready": os.getpid()}) + "\n")
        for line in sys.stdin:
            if not line.strip():
                continue
            protocol.write(json.dumps(run_task(json.loads(line))) + "\n")
    except BrokenPipeError:
        pass  # the coordinator is gone
    # The end of the tasks without a SIGTERM first: the coordinator is gone, or let the worker be.
    _abandoned()


if __name__ == "__main__":
    main()
