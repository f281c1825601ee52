"""`mkdocs serve`'s watcher of snippets/: the operating system's file notices (inotify on Linux),
not MkDocs' polling every half second, so a save is seen at once; where watchdog has no native
observer it polls as MkDocs does. Only what an editor's save is counts, and never the records the
live preview writes itself; a record changed by anything else (a git pull, the CUDA records' pull
request) counts as a change of its snippet, whose pages show the record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import watchdog.events
import watchdog.observers
from mkdocs.livereload import LiveReloadServer
from watchdog.observers.api import BaseObserver

# What an editor's save is, to a file watcher: a write, a new file, a rename onto it, a removal.
SAVE_EVENTS = frozenset({"created", "modified", "moved", "deleted", "closed"})


def is_save(event: watchdog.events.FileSystemEvent, record_suffix: str,
            record_is_ours: Callable[[Path], bool]) -> bool:
    """Whether the event is a save of a snippet file, or a change of a record that the live
    preview did not make (`record_is_ours`). Native observers also report files opened and
    closed unchanged: the build reading a snippet must not look like a save (it would rebuild
    again after every rebuild)."""
    path = str(getattr(event, "dest_path", "") or event.src_path)
    name = Path(path).name
    if event.event_type not in SAVE_EVENTS:
        return False
    if event.is_directory or "__pycache__" in path or name.startswith("."):
        return False
    return not (name.endswith(record_suffix) and record_is_ours(Path(path)))


def snippet_of(path: str, record_suffix: str) -> str:
    """The snippet a changed file stands for: a record (`<name>.<device><suffix>`) stands for
    `<name>.py`, whose pages show it; any other file for itself."""
    if not path.endswith(record_suffix):
        return path
    return str(Path(path).with_suffix("").with_suffix(".py"))


def watch_snippets(server: LiveReloadServer, snippets: Path, root: Path, record_suffix: str,
                   record_is_ours: Callable[[Path], bool],
                   saved: Callable[[str], None]) -> BaseObserver:
    """Start a daemon observer of `snippets` that reports each save (as a path relative to `root`)
    to `saved` and asks `server` for a rebuild."""

    def changed(event: watchdog.events.FileSystemEvent) -> None:
        if not is_save(event, record_suffix, record_is_ours):
            return
        path = snippet_of(str(getattr(event, "dest_path", "") or event.src_path), record_suffix)
        try:
            saved(Path(path).resolve().relative_to(root).as_posix())
        except ValueError:
            saved(path)
        # What LiveReloadServer.watch's own callback does (mkdocs 1.6.1, the last 1.x release).
        with server._rebuild_cond:
            server._want_rebuild = True
            server._rebuild_cond.notify_all()

    handler = watchdog.events.FileSystemEventHandler()
    handler.on_any_event = changed  # type: ignore[method-assign]
    observer = watchdog.observers.Observer()
    observer.schedule(handler, str(snippets), recursive=True)
    observer.daemon = True
    observer.start()
    return observer
