"""A pool of warm workers that runs tasks in parallel and hands results back as they finish.

Each worker is a separate `python -m snippet_engine.execution.worker` process in its own session, so a
Ctrl-C at the terminal reaches only this coordinator, which then stops the workers (and through
them, their children) before any record could be half-written.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from typing import cast

from snippet_engine.errors import ProjectError
from snippet_engine.execution.headers import HEADERS_VARIABLE, RunMark, shared_header_dir, unusable
from snippet_engine.execution.namespaces import make_removable
from snippet_engine.execution.reaping import WORKER_PREFIX, kill_marked, mark_owner, remove_abandoned
from snippet_engine.protocol import WARM_UP_VARIABLE, Reply, Task, WarmKind, engine_failure
from snippet_engine.snippet_env import worker_env

__all__ = ["Worker", "WorkerCrashed", "WorkerPool", "run_parallel", "worker_env"]


class WorkerCrashed(ProjectError, RuntimeError):
    """A worker process died (while importing torch, or while running a task); the message
    holds the end of what it printed to stderr."""


class Worker:
    """One warm worker process. Its snippets' temporary folders are made in a folder of its own
    (its TMPDIR), which `stop` removes once the worker has gone: whatever a snippet wrote is
    removed however the run ends, even when the worker itself had to be killed.

    `headers`: the folder of precompiled C++ headers shared by every worker and snippet
    (`headers`); None keeps them in the worker's own folder. `cpu_capability`: run under that
    CPU capability (`snippet_env.CPU_CAPABILITIES`) instead of the host's: the worker and every
    snippet it forks or starts are processes started with it."""

    def __init__(self, device: str, warm: WarmKind = "export", python: str = sys.executable,
                 headers: str | None = None, cpu_capability: str | None = None) -> None:
        self.tmpdir = tempfile.mkdtemp(prefix=WORKER_PREFIX)
        mark_owner(self.tmpdir)  # for the next run, should this one be killed with its workers
        env = worker_env(device, tmpdir=self.tmpdir, cpu_capability=cpu_capability)
        env[WARM_UP_VARIABLE] = warm
        if headers is not None:
            env[HEADERS_VARIABLE] = headers
        self.warm = warm
        try:
            self.proc = subprocess.Popen(
                [python, "-m", "snippet_engine.execution.worker"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                start_new_session=True, bufsize=1,
            )
        except OSError:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            raise
        self._stderr: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        ready = self.proc.stdout.readline() if self.proc.stdout else ""
        if not ready:
            self.stop()
            raise WorkerCrashed("a snippet worker died while importing torch:\n"
                                + "".join(self._stderr[-40:]))

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-200]

    def run(self, task: Task) -> Reply:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            raise WorkerCrashed("a snippet worker died:\n" + "".join(self._stderr[-40:]))
        return cast(Reply, json.loads(line))

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGTERM)  # the worker kills its running child first
                self.proc.wait(timeout=5)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.proc.returncode != 128 + signal.SIGTERM:
            # It did not end by its own clean-up (it was killed, by us or on its own, or it
            # crashed), so its snippet's processes may still run, adopted by init: they carry
            # its folder in their environment (TMPDIR), which finds them wherever they went.
            kill_marked(self.tmpdir)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        make_removable(self.tmpdir)  # a snippet's overlay, where the worker could not remove it
        shutil.rmtree(self.tmpdir, ignore_errors=True)


class WorkerPool:
    """Up to `size` warm workers that outlive a single run, for a live preview that re-records a
    snippet on every save without paying for torch's import again.

    A run that ends early (an exception, Ctrl-C, the caller stopping) stops every worker, so no
    record can be half-written; a run that completes leaves them idle for the next one.

    Its workers share torch's folder of precompiled C++ headers (`headers`: AOTInductor and C++
    kernel compiles build each header once, not once per worker and run); the pool marks the
    folder as in use from its first worker to `close`, so that a run killed outright is cleaned
    up after by the next. Where the folder cannot be used (`headers.unusable`), the pool says so
    once and its workers keep their headers in their own folders.
    """

    def __init__(self, device: str, size: int, python: str = sys.executable,
                 cpu_capability: str | None = None) -> None:
        """`python`: the interpreter the workers run in (another venv, for a drift run);
        `cpu_capability`: the CPU capability they run under (None: the host's own)."""
        self.device, self.size, self.python = device, size, python
        self.cpu_capability = cpu_capability
        self._idle: list[Worker] = []
        self._all: list[Worker] = []
        self._lock = threading.Lock()
        self._headers: RunMark | None = None
        self._unshared = False  # the shared folder was found unusable: the workers do without
        # What a run killed together with its workers left (their folders, a snippet's helper).
        remove_abandoned(tempfile.gettempdir())

    def _headers_folder(self) -> str | None:
        """The shared folder for a new worker; None where this run does without it."""
        with self._lock:
            if self._headers is None and not self._unshared:
                shared = shared_header_dir()
                reason = unusable(shared)
                if reason is None:
                    mark = RunMark(shared)
                    try:
                        mark.claim()
                        self._headers = mark
                    except OSError as exc:
                        reason = f"cannot be written to ({exc.strerror or exc})"
                if reason is not None:
                    self._unshared = True
                    print(f"note: torch's shared folder of precompiled headers, {shared}, "
                          f"{reason}: this run's snippets build their own (slower, same output)",
                          file=sys.stderr)
            return None if self._headers is None else str(self._headers.shared)

    def _release_headers(self) -> None:
        """Take the pool's mark off the shared folder, once none of its workers compiles."""
        with self._lock:
            mark, self._headers, self._unshared = self._headers, None, False
        if mark is not None:
            mark.release()

    def _take(self, warm: WarmKind) -> Worker:
        with self._lock:
            for worker in self._idle:
                if worker.warm == warm:
                    self._idle.remove(worker)
                    return worker
        worker = Worker(self.device, warm, self.python, headers=self._headers_folder(),
                        cpu_capability=self.cpu_capability)
        with self._lock:
            self._all.append(worker)
        return worker

    def _give_back(self, worker: Worker) -> None:
        with self._lock:
            if worker.proc.poll() is None:
                self._idle.append(worker)
                return
            self._all.remove(worker)
        worker.stop()  # only its temporary folder is left to remove

    def _drop(self, worker: Worker) -> None:
        worker.stop()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)

    def run(self, tasks: list[Task]) -> Iterator[Reply]:
        """Yield one result per task, in completion order."""
        if not tasks:
            return
        todo: queue.Queue[Task] = queue.Queue()
        for task in tasks:
            todo.put(task)
        results: queue.Queue[Reply] = queue.Queue()
        stopping = threading.Event()

        def serve() -> None:
            worker: Worker | None = None
            while not stopping.is_set():
                try:
                    task = todo.get_nowait()
                except queue.Empty:
                    break
                try:
                    warm = task["warm"]
                    if worker is not None and worker.warm != warm:
                        self._give_back(worker)  # kept warm for a later task of its kind
                        worker = None
                    if worker is None:
                        worker = self._take(warm)
                        if stopping.is_set():
                            break
                    results.put(worker.run(task))
                except Exception as exc:
                    results.put(engine_failure(task["id"], f"engine error: {exc}"))
                    if worker is not None:
                        self._drop(worker)
                    worker = None
            if worker is not None:
                self._give_back(worker)

        threads = [threading.Thread(target=serve, daemon=True)
                   for _ in range(min(self.size, len(tasks)))]
        for thread in threads:
            thread.start()
        completed = False
        try:
            for _ in range(len(tasks)):
                yield results.get()
            completed = True
        finally:
            stopping.set()
            if not completed:
                self.close()
            for thread in threads:
                thread.join(timeout=10)
            if not completed:
                self.close()  # a worker that was still starting when the run was stopped

    def close(self) -> None:
        with self._lock:
            workers, self._all, self._idle = list(self._all), [], []
        for worker in workers:
            worker.stop()
        self._release_headers()  # after the workers: none of them compiles into it any more


def run_parallel(tasks: list[Task], device: str, jobs: int,
                 cpu_capability: str | None = None) -> Iterator[Reply]:
    """Yield one result per task, in completion order, from `jobs` warm workers started for this
    run and stopped after it (under `cpu_capability`, None: the host's own)."""
    pool = WorkerPool(device, jobs, cpu_capability=cpu_capability)
    try:
        yield from pool.run(tasks)
    finally:
        pool.close()
