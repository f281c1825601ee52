"""The worker pool a live preview keeps: a pre-started worker is the one the next task of its kind
runs in (the task waits for it rather than start a second one), and closing the pool while a
worker is starting leaves no process behind."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from helpers import alive
from snippet_engine.protocol import Task
from snippet_engine.scheduler import WorkerPool


def _task(path: Path) -> Task:
    return Task(id=1, path=str(path), device="cpu", snippets_root=str(path.parent), expect=None,
                timeout=120.0, fresh=False, warm="export", defer_torch=False, port_default=None)


def test_a_task_waits_for_the_worker_being_prestarted_and_runs_in_it(tmp_path: Path) -> None:
    snippet = tmp_path / "hello.py"
    snippet.write_text("import os\nprint('ran in', os.getppid())\n")
    pool = WorkerPool("cpu", 1)
    try:
        starting = threading.Thread(target=pool.prestart, args=("export",))
        starting.start()
        while not pool._starting:  # the prestart has begun: the worker is importing torch
            time.sleep(0.01)
        (reply,) = list(pool.run([_task(snippet)]))
        starting.join()
        assert reply["status"] == "ok", reply
        workers = list(pool._all)
        assert len(workers) == 1, "the task started a second worker instead of waiting"
        assert f"ran in {workers[0].proc.pid}" in reply["output"], reply["output"]
    finally:
        pool.close()


def test_closing_the_pool_while_a_worker_starts_stops_it(tmp_path: Path) -> None:
    pool = WorkerPool("cpu", 1)
    starting = threading.Thread(target=pool.prestart, args=("export",))
    starting.start()
    while not pool._starting:
        time.sleep(0.01)
    pool.close()
    starting.join(timeout=120)
    assert not starting.is_alive()
    assert pool._all == [] and pool._idle == []
    leftovers = [p for p in Path("/proc").glob("[0-9]*")
                 if alive(int(p.name)) and _is_worker_in(p, "snippet_engine.worker")]
    assert not [p for p in leftovers if _parent(p) == os.getpid()], leftovers


def _is_worker_in(proc: Path, name: str) -> bool:
    try:
        return name.encode() in (proc / "cmdline").read_bytes()
    except OSError:
        return False


def _parent(proc: Path) -> int:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1
