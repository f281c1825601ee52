"""What `mkdocs serve --dirty` (scripts/dev.sh serve) needs to rebuild only what a snippet save
changed, kept apart from the hooks so each piece has one job and no MkDocs import:

- `ChangeLog`: the snippet files the watcher saw change since the last rebuild (the watcher
  thread writes, the build thread takes);
- `newest_change`: the newest modification time of anything under the other watched paths, so
  a rebuild that a page, the config or the page tooling also asked for is never cut short;
- `TemplateBytecodes`: the theme's compiled Jinja templates, kept from one rebuild to the next
  (MkDocs makes a new template environment for every rebuild, and compiling Material's templates
  again was about half of a snippet-only rebuild);
- `Deferred`: the serve-time work that does not change the page the reader watches (notebook
  downloads, decks, questions.json, the search index) run in one background thread after the
  reload, a newer rebuild's job replacing an older one that has not finished.

`mkdocs build` never uses any of this: its output is the same with or without it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import jinja2

log = logging.getLogger("mkdocs.hooks.live_rebuild")


class TemplateBytecodes(jinja2.BytecodeCache):
    """Jinja's own bytecode cache, in memory for the life of the dev server. Jinja keys each
    entry by the template's name and checks it against a checksum of the template's source, so an
    edited template (an override in docs/overrides) is compiled again, never served stale."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with self._lock:
            code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = bucket.bytecode_to_string()
        with self._lock:
            self._code[bucket.key] = code


class ChangeLog:
    """Repository-relative paths of changed snippet files, collected between two rebuilds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._paths: set[str] = set()

    def add(self, rel: str) -> None:
        with self._lock:
            self._paths.add(rel)

    def take(self) -> set[str]:
        """The paths seen since the last call, forgetting them."""
        with self._lock:
            paths, self._paths = self._paths, set()
        return paths


def newest_change(paths: Iterable[Path]) -> int:
    """The newest mtime (ns) of the given files and folders and of everything under the folders.
    A folder's own mtime changes when a file in it is created, renamed or removed."""
    newest = 0
    for top in paths:
        if not top.exists():
            continue
        newest = max(newest, top.stat().st_mtime_ns)
        if top.is_dir():
            for folder, dirs, files in os.walk(top):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                for name in (*dirs, *files):
                    try:
                        newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime_ns)
                    except FileNotFoundError:
                        continue
    return newest


Step = Callable[[], None]


class Deferred:
    """One background thread running the latest submitted job: its steps in order, `delay`
    seconds after submission (so that the reloaded page is served first). Submitting or
    cancelling stops an older job before its next step; a step already running finishes."""

    def __init__(self, delay: float = 1.0) -> None:
        self.delay = delay
        self._cond = threading.Condition()
        self._job: list[tuple[str, Step]] | None = None
        self._generation = 0
        self._running = False
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="deferred-site-data", daemon=True)
        self._thread.start()

    def submit(self, steps: list[tuple[str, Step]]) -> None:
        with self._cond:
            self._generation += 1
            self._job = steps
            self._cond.notify_all()

    def cancel(self, wait: bool) -> None:
        """Drop the pending job; with `wait`, also wait until no step is running (a full
        rebuild writes the same files)."""
        with self._cond:
            self._generation += 1
            self._job = None
            self._cond.notify_all()
            if wait:
                self._cond.wait_for(lambda: not self._running)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._job = None
            self._generation += 1
            self._cond.notify_all()
        self._thread.join(timeout=60)

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._job is not None or self._closed)
                if self._closed:
                    return
                generation = self._generation

                def superseded(generation: int = generation) -> bool:
                    return self._generation != generation or self._closed

                # A newer submission or a cancel during the delay restarts the wait.
                if self._cond.wait_for(superseded, timeout=self.delay):
                    continue
                steps, self._job = self._job or [], None
                self._running = True
            try:
                for name, step in steps:
                    with self._cond:
                        if self._generation != generation or self._closed:
                            break
                    try:
                        step()
                    except Exception as exc:  # shown in the serve log; the next rebuild retries
                        log.error(f"after the live preview's rebuild, {name} failed: {exc}")
                        break
            finally:
                with self._cond:
                    self._running = False
                    self._cond.notify_all()
