"""The engine's one read API for the pages: a snippet's options and, per device, its record and
whether that record is current.

The page format validates a page's snippets and then renders them; the notebooks, the question
index and the decks describe them too. Each used to reach into `options`, `records`, `discovery`
and `check` and to hash the same sources again. `StatusBook` reads each snippet once per build.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from snippet_engine.records.check import RecordState, record_state
from snippet_engine.records.pins import pinned_torch, release
from snippet_engine.records.record_file import Record, RecordError, read_record
from snippet_engine.source.analysis import FreshNeed, fresh_need
from snippet_engine.source.discovery import Snippet, helper_files
from snippet_engine.source.options import DEVICES, SnippetOptionError, SnippetOptions, parse_options

State = RecordState | Literal["not declared"]

# What the pages need of the engine, from one module (the records' and options' own types too).
__all__ = ["DEVICES", "DeviceStatus", "FreshNeed", "Record", "SnippetOptionError", "SnippetOptions",
           "SnippetStatus", "State", "StatusBook", "snippet_status"]


@dataclass(frozen=True)
class DeviceStatus:
    """One device of one snippet. `record` is None when there is none or it cannot be read
    (state 'damaged', `why` says where)."""

    device: str
    state: State
    why: str
    record: Record | None

    @property
    def declared(self) -> bool:
        return self.state != "not declared"


@dataclass(frozen=True)
class SnippetStatus:
    ref: str  # relative to snippets/, as pages name it: "export/x.py"
    path: Path
    options: SnippetOptions
    devices: dict[str, DeviceStatus]  # every device in DEVICES, declared or not
    pinned: str  # the torch release requirements.txt pins
    helpers: tuple[Path, ...]  # the helper modules under snippets/ it imports, directly or not
    fresh: FreshNeed | None  # why the engine runs it in a new interpreter; None when it forks it

    @property
    def rel(self) -> str:
        """The repository-relative path, as errors and commands name it."""
        return f"snippets/{self.ref}"

    def on(self, device: str) -> DeviceStatus:
        return self.devices[device]

    def on_pinned_torch(self, device: str) -> bool:
        record = self.devices[device].record
        return record is not None and release(record.torch) == self.pinned


def snippet_status(root: Path, ref: str) -> SnippetStatus:
    """Read one snippet. Raises FileNotFoundError for a missing file and SnippetOptionError for a
    bad `#|` line; a damaged record is a state, not an exception, so a page still renders."""
    path = root / "snippets" / ref
    if not path.is_file():
        raise FileNotFoundError(f"snippets/{ref}")
    options = parse_options(path)
    snippet = Snippet(path, f"snippets/{ref}")
    devices: dict[str, DeviceStatus] = {}
    for device in DEVICES:
        if device not in options.devices:
            devices[device] = DeviceStatus(device, "not declared",
                                           f"it declares '#| devices: {', '.join(options.devices)}'",
                                           None)
            continue
        state, why = record_state(path, root, device)
        try:
            record = read_record(snippet.record_path(device))
        except RecordError:
            record = None
        devices[device] = DeviceStatus(device, state, why, record)
    return SnippetStatus(ref, path, options, devices, pinned_torch(root),
                         tuple(helper_files(snippet, root)),
                         fresh_need(path.read_text(encoding="utf-8"), options))


class StatusBook:
    """Snippet statuses read once per build: the validation and the rendering of a page, its
    notebook and its index entry all see the same reading."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[str, SnippetStatus] = {}

    def status(self, ref: str) -> SnippetStatus:
        if ref not in self._read:
            self._read[ref] = snippet_status(self.root, ref)
        return self._read[ref]
