"""Live preview: re-record what changed on every rebuild, with warm workers kept between rebuilds.

A site generator's dev server calls `refresh()` before each rebuild. It plans and runs exactly as
`snippets.py run` does (same keys, same isolation, same records), so a snippet saved in an editor
shows its new real output on the next reload. A failing run is different from `run` in one way:
it is kept in memory only and reported, never written into a record and never marking one
stale, so that a half-edited snippet neither touches committed files nor re-runs on every
rebuild (it re-runs when its source changes again).

A record can also change on disk while its snippet does not (a git pull, the CUDA records' pull
request): the dev server's file watcher asks `changed_outside` whether a record file it saw
change differs from what the preview itself wrote or last saw there, and rebuilds the pages that
show the snippet if so; the records the preview writes itself never ask for a second rebuild.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from snippet_engine.execution.progress import Progress
from snippet_engine.execution.runner import Outcome, execute, plan, select
from snippet_engine.execution.scheduler import WorkerPool
from snippet_engine.protocol import GOOD
from snippet_engine.protocol import Outcome as Status
from snippet_engine.records.environment import Environment, detect


@dataclass(frozen=True)
class PreviewFailure:
    """What the last run of a snippet's current source did, for the page to show instead of a
    record: never stored."""

    status: Status  # never ok or expected-error: those are recorded
    message: str
    output: str
    hint: str


class LivePreview:
    def __init__(self, root: Path, jobs: int = 1) -> None:
        self.root = root.resolve()
        self.jobs = jobs
        self._env: Environment | None = None
        self._pool: WorkerPool | None = None
        self._failed: dict[str, tuple[str, Outcome]] = {}  # rel -> (key of the source, outcome)
        # Record files as the preview last wrote or saw them (a digest; None: no file), and those
        # it is writing now: the watcher's thread asks while a refresh runs.
        self._seen: dict[Path, str | None] = {}
        self._writing: set[Path] = set()
        self._records_lock = threading.Lock()

    def changed_outside(self, record: Path) -> bool:
        """Whether the record file `record` changed other than by this preview's own runs: it is
        not one the preview is writing, and its content is not what the preview last wrote or
        saw there. Each change counts once: what it is now is what the preview has seen."""
        record = record.resolve()
        digest = _digest(record)
        with self._records_lock:
            if record in self._writing or (record in self._seen and self._seen[record] == digest):
                return False
            self._seen[record] = digest
            return True

    def refresh(self, only: Collection[str] | None = None
                ) -> tuple[list[Outcome], dict[str, PreviewFailure]]:
        """Run every CPU snippet whose record is missing or stale (except a source that already
        failed as it is now); return what ran, and the current failures by snippet path
        (`snippets/<topic>/<name>.py`). `only`: look at these snippet files alone (the ones a
        watcher saw saved; planning the whole bank costs about a second), keeping the other
        snippets' failures as they were."""
        if self._env is None:
            self._env = detect("cpu")
        if self._pool is None:
            self._pool = WorkerPool("cpu", self.jobs)
        if only is not None and not only:
            snippets = []
        else:
            selectors = None if only is None else [str(self.root / rel) for rel in sorted(only)]
            snippets = select(self.root, selectors, "cpu", None)
        considered = {snippet.rel for snippet in snippets}
        jobs, _ = plan(self.root, snippets, self._env, force=False)
        keys = {job.snippet.rel: job.key for job in jobs}
        todo = [job for job in jobs if self._failed.get(job.snippet.rel, ("",))[0] != job.key]
        writing = {job.snippet.record_path(self._env.device).resolve() for job in todo}
        with self._records_lock:
            self._writing |= writing
        try:
            ran = execute(self.root, todo, self._env, self.jobs,
                          Progress(len(todo), io.StringIO(), False),
                          pool=self._pool, mark_failures=False) if todo else []
        finally:
            with self._records_lock:
                for record in writing:
                    self._seen[record] = _digest(record)
                self._writing -= writing
        for outcome in ran:
            if outcome.status in GOOD:
                self._failed.pop(outcome.path, None)
            else:
                self._failed[outcome.path] = (outcome.key, outcome)
        # A failure counts only while its source is what failed (and still has no good record).
        current = {rel: outcome for rel, (key, outcome) in self._failed.items()
                   if keys.get(rel) == key or (only is not None and rel not in considered)}
        failures = {rel: PreviewFailure(o.status, o.message, o.output, o.hint)
                    for rel, o in current.items()}
        return ran, failures

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def _digest(path: Path) -> str | None:
    """What the file holds, as a digest; None where there is no file to read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
