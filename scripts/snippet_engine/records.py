"""Records: one committed text file per snippet and device, readable in a diff.

A record is a header of `key: value` provenance lines, a separator line, then the output exactly
as recorded (plain text, never escaped). Writes are atomic (a temporary file in the same folder,
then `os.replace`), so two runs at once or a Ctrl-C never leave a torn record. A failed run keeps
the last good output and marks the record stale instead of overwriting it.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

BANNER = "# Snippet record written by scripts/snippets.py from a real run. Do not edit by hand."
SEPARATOR = "-" * 30 + " output " + "-" * 30
FIELDS = (
    "snippet", "device", "status", "error-type", "stale", "key", "source-sha256", "helpers",
    "engine", "torch", "python", "hardware", "duration-s", "peak-rss-mib", "recorded",
)


class RecordError(ValueError):
    """A record file that cannot be parsed; the message names the file and line."""


@dataclass(frozen=True)
class Record:
    snippet: str
    device: str
    status: str  # "ok" or "expected-error"
    output: str
    key: str
    source_sha256: str
    engine: str
    torch: str
    python: str
    hardware: str
    duration_s: float
    peak_rss_mib: float
    recorded: str  # ISO 8601, UTC
    error_type: str = ""
    stale: str = ""  # empty when current; otherwise why it is stale
    helpers: dict[str, str] = field(default_factory=dict)

    @property
    def is_stale(self) -> bool:
        return bool(self.stale)

    def marked_stale(self, why: str) -> Record:
        return replace(self, stale=" ".join(why.split())[:300] or "marked stale")

    def same_result(self, other: Record) -> bool:
        """Whether two records say the same thing, ignoring when, how fast, and on what CPU."""
        return (self.key, self.status, self.error_type, self.output, self.stale) == (
            other.key, other.status, other.error_type, other.output, other.stale)

    def render(self) -> str:
        values = {
            "snippet": self.snippet,
            "device": self.device,
            "status": self.status,
            "error-type": self.error_type or "-",
            "stale": f"yes: {self.stale}" if self.stale else "no",
            "key": self.key,
            "source-sha256": self.source_sha256,
            "helpers": " ".join(f"{p}@{h}" for p, h in sorted(self.helpers.items())) or "-",
            "engine": self.engine,
            "torch": self.torch,
            "python": self.python,
            "hardware": self.hardware,
            "duration-s": f"{self.duration_s:.2f}",
            "peak-rss-mib": f"{self.peak_rss_mib:.0f}",
            "recorded": self.recorded,
        }
        header = "\n".join(f"{name}: {values[name]}" for name in FIELDS)
        return f"{BANNER}\n{header}\n{SEPARATOR}\n{self.output}"


def parse_record(text: str, path: Path | str = "<record>") -> Record:
    lines = text.split("\n")
    if not lines or lines[0] != BANNER:
        raise RecordError(f"{path}:1: not a snippet record (first line should be '{BANNER}'). "
                          "Delete it and re-run: python scripts/snippets.py run")
    values: dict[str, str] = {}
    for index, line in enumerate(lines[1:], start=2):
        if line == SEPARATOR:
            output = "\n".join(lines[index:])
            break
        if not line and index == len(lines):
            continue  # the file ends before the separator: reported as truncated below
        name, sep, value = line.partition(": ")
        if not sep or name not in FIELDS:
            raise RecordError(f"{path}:{index}: unexpected header line '{line[:80]}'. "
                              "Records are written by the engine; re-run the snippet to rewrite it")
        values[name] = value
    else:
        raise RecordError(f"{path}: no '{SEPARATOR}' line; the record is truncated. "
                          "Re-run the snippet to rewrite it")
    missing = [name for name in FIELDS if name not in values]
    if missing:
        raise RecordError(f"{path}: header lacks {', '.join(missing)}. Re-run the snippet")
    stale = values["stale"]
    helpers = {}
    if values["helpers"] != "-":
        for item in values["helpers"].split():
            helper, _, digest = item.rpartition("@")
            helpers[helper] = digest
    try:
        return Record(
            snippet=values["snippet"], device=values["device"], status=values["status"],
            output=output, key=values["key"], source_sha256=values["source-sha256"],
            engine=values["engine"], torch=values["torch"], python=values["python"],
            hardware=values["hardware"], duration_s=float(values["duration-s"]),
            peak_rss_mib=float(values["peak-rss-mib"]), recorded=values["recorded"],
            error_type="" if values["error-type"] == "-" else values["error-type"],
            stale="" if stale == "no" else stale.removeprefix("yes: "), helpers=helpers,
        )
    except ValueError as exc:
        raise RecordError(f"{path}: malformed header value ({exc}). Re-run the snippet") from None


def read_record(path: Path) -> Record | None:
    """The record at `path`, or None when there is none."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return parse_record(text, path)


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step; a reader sees the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def store(path: Path, new: Record) -> bool:
    """Write `new` unless the committed record already says the same; True when the file changed."""
    old = read_record(path)
    if old is not None and old.same_result(new) and old.helpers == new.helpers:
        return False
    write_atomic(path, new.render())
    return True


def mark_stale(path: Path, why: str) -> bool:
    """Keep the last good output but flag it; True when the file changed."""
    old = read_record(path)
    if old is None:
        return False
    new = old.marked_stale(why)
    if new.render() == old.render():
        return False
    write_atomic(path, new.render())
    return True
