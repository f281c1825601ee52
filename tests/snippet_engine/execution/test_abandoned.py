"""Nothing is left behind when the run itself goes without stopping its workers: a closed terminal
(SIGHUP), a SIGKILL of the coordinator, of the coordinator and its workers at once, or a worker
that dies on its own. The running snippet, its worker, the helper it started in a session of its
own and the worker's folder all go, at once or, where nothing of the run was left to do it, at the
next run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from helpers import SCRIPTS, alive, run_cli, write
from snippet_engine.execution.headers import header_dir

# A snippet that starts a helper in a session of its own, writes into its folders, says where it
# is, and runs until it is stopped.
HANGS = '''import os, subprocess, time
helper = subprocess.Popen(["sleep", "300"], start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
open("big.bin", "wb").write(os.urandom(1 << 16))
open({pids!r} + ".tmp", "w").write(f"{{os.getpid()}} {{helper.pid}}")
os.rename({pids!r} + ".tmp", {pids!r})
time.sleep(300)
'''
GONE_WITHIN_S = 15  # a loaded 2-core machine takes a moment to let a signalled process exit


@dataclass
class Running:
    proc: subprocess.Popen
    tmp: Path  # the run's TMPDIR, where its workers' folders are
    snippet: int
    helper: int
    worker: int


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _worker_folders(tmp: Path) -> list[Path]:
    """What the run's workers left in its TMPDIR: everything but the shared header folder, which
    torch keeps there for every `python` of this user."""
    kept = header_dir(tmp)
    return [p for p in tmp.iterdir() if p != kept.parent]


def _all_gone(pids: list[int], timeout: float = GONE_WITHIN_S) -> list[int]:
    deadline = time.monotonic() + timeout
    while [p for p in pids if alive(p)] and time.monotonic() < deadline:
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@contextmanager
def hanging_run(repo: Path, tmp_path: Path) -> Iterator[Running]:
    """`snippets.py run` with one worker, its snippet running; whatever the test leaves of it is
    killed on the way out, so a failing test (today's engine) leaves nothing on the machine."""
    pids, tmp = tmp_path / "pids", tmp_path / "tmp"
    tmp.mkdir()
    write(repo, "snippets/t/hangs.py", HANGS.format(pids=str(pids)))
    proc = subprocess.Popen([sys.executable, str(SCRIPTS / "snippets.py"), "--root", str(repo),
                             "run", "--jobs", "1"], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp)})
    running = None
    try:
        deadline = time.monotonic() + 120
        while not pids.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pids.exists(), "the hanging snippet never started"
        snippet, helper = map(int, pids.read_text().split())
        workers = [pid for pid in _children(proc.pid)
                   if b"snippet_engine.execution.worker" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert len(workers) == 1, workers
        running = Running(proc, tmp, snippet, helper, workers[0])
        yield running
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if running is not None:
            _kill([running.snippet, running.helper, running.worker])


def test_a_closed_terminal_stops_the_run_as_ctrl_c_does(repo: Path, tmp_path: Path) -> None:
    """SIGHUP reaches only the coordinator (the workers and snippets have sessions of their own)."""
    with hanging_run(repo, tmp_path) as run:
        run.proc.send_signal(signal.SIGHUP)
        _, stderr = run.proc.communicate(timeout=120)
        assert run.proc.returncode == 128 + signal.SIGHUP, stderr
        assert _all_gone([run.snippet, run.helper, run.worker]) == []
        assert _worker_folders(run.tmp) == [], "the worker's folder was left behind"


def test_a_killed_run_takes_its_worker_snippet_and_folder_with_it(repo: Path,
                                                                   tmp_path: Path) -> None:
    """SIGKILL of the coordinator: its worker sees it go and cleans up as on a stop."""
    with hanging_run(repo, tmp_path) as run:
        run.proc.kill()
        run.proc.wait()
        assert _all_gone([run.snippet, run.helper, run.worker]) == []
        deadline = time.monotonic() + GONE_WITHIN_S
        while _worker_folders(run.tmp) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _worker_folders(run.tmp) == [], "the worker's folder was left behind"


def test_what_a_run_killed_with_its_workers_left_goes_at_the_next_run(repo: Path,
                                                                      tmp_path: Path) -> None:
    """SIGKILL of the coordinator and its worker at once (stopped first, so that neither sees
    the other go): the snippet dies with its worker; its helper (in a session of its own, so
    adopted by init) and the worker's folder are removed by the next run."""
    with hanging_run(repo, tmp_path) as run:
        for pid in (run.proc.pid, run.worker):
            os.kill(pid, signal.SIGSTOP)
        for pid in (run.worker, run.proc.pid):
            os.kill(pid, signal.SIGKILL)
        run.proc.wait()
        assert _all_gone([run.worker, run.snippet]) == [], "the snippet outlived its worker"
        assert _worker_folders(run.tmp), "nothing of the run was left: the test proves nothing"
        (repo / "snippets/t/hangs.py").unlink()
        write(repo, "snippets/t/quick.py", "print('next run')\n")
        done = run_cli("run", root=repo, env={"TMPDIR": str(run.tmp)}, timeout=300)
        assert done.returncode == 0, done.stderr
        assert _all_gone([run.helper], timeout=2) == [], "the helper outlived the next run"
        assert _worker_folders(run.tmp) == [], "the dead run's folder outlived the next run"


def test_a_worker_that_dies_takes_its_snippets_helpers_with_it(repo: Path,
                                                               tmp_path: Path) -> None:
    """The worker killed on its own (out of memory, say): the run goes on and reports it, and
    neither the snippet nor the helper it started in a session of its own is left running."""
    with hanging_run(repo, tmp_path) as run:
        os.kill(run.worker, signal.SIGKILL)
        _, stderr = run.proc.communicate(timeout=120)
        assert "worker died" in stderr, stderr
        assert _all_gone([run.snippet, run.helper]) == []
        assert _worker_folders(run.tmp) == [], "the worker's folder was left behind"
