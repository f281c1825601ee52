"""Records: one committed text file per snippet and device, readable in a diff.

A record is a header of `key: value` provenance lines, a separator line, then the output exactly
as recorded (plain text, never escaped). The header's last line, `result-sha256`, is a digest of
what the run said (the snippet, the device, the outcome, the key and the output): a record whose
output was typed or edited by hand does not match it, and is reported as damaged.

Writes are atomic (a temporary file in the same folder, then `os.replace`), so two runs at once or
a Ctrl-C never leave a torn record. A failed run keeps the last good output and marks the record
stale instead of overwriting it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from snippet_engine.errors import ProjectError
from snippet_engine.protocol import GOOD, Outcome
from snippet_engine.source.discovery import Snippet, all_records

BANNER = "# Snippet record written by scripts/snippets.py from a real run. Do not edit by hand."
SEPARATOR = "-" * 30 + " output " + "-" * 30


class RecordError(ProjectError, ValueError):
    """A record file that cannot be parsed; the message names the file and line."""


@dataclass(frozen=True)
class Record:
    snippet: str
    device: str
    status: Outcome  # "ok" or "expected-error": only a good run is recorded
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
    # The distributions the output can depend on, with the versions it was recorded with
    # (packages.package_versions); empty in a record from before engine version 6.
    packages: dict[str, str] = field(default_factory=dict)

    @property
    def is_stale(self) -> bool:
        return bool(self.stale)

    def marked_stale(self, why: str) -> Record:
        return replace(self, stale=" ".join(why.split())[:300] or "marked stale")

    def same_result(self, other: Record) -> bool:
        """Whether two records say the same thing, ignoring when, how fast, and on what CPU (but
        not for which snippet: a record renamed with its snippet is rewritten with its path)."""
        return (self.snippet, self.device, self.key, self.status, self.error_type, self.output,
                self.stale) == (other.snippet, other.device, other.key, other.status,
                                other.error_type, other.output, other.stale)

    @property
    def result_digest(self) -> str:
        """The sha256 of what the run said: which snippet on which device, its outcome and key,
        and its output. Written by the engine as the header's last line (`DIGEST_FIELD`)."""
        said = [self.snippet, self.device, self.status, self.error_type, self.key, self.output]
        return hashlib.sha256(json.dumps(said, ensure_ascii=False).encode("utf-8")).hexdigest()

    def render(self) -> str:
        header = "\n".join(f"{spec.header}: {spec.write(getattr(self, spec.attr))}"
                           for spec in RECORD_FIELDS)
        return f"{BANNER}\n{header}\n{DIGEST_FIELD}: {self.result_digest}\n{SEPARATOR}\n{self.output}"


@dataclass(frozen=True)
class FieldSpec:
    """One header line of a record: its name in the file, the `Record` attribute it holds, and
    how its value is written and read back (`read` raises ValueError on a malformed value)."""

    header: str
    attr: str
    write: Callable[[Any], str] = str
    read: Callable[[str], Any] = str
    optional: bool = False  # absent from records older than the field; read as the default


def _status(value: str) -> Outcome:
    if value not in GOOD:
        raise ValueError(f"only {' and '.join(GOOD)} are recorded")
    return value  # narrowed: GOOD holds only Outcome values


def _write_helpers(helpers: dict[str, str]) -> str:
    return " ".join(f"{path}@{digest}" for path, digest in sorted(helpers.items())) or "-"


def _read_helpers(value: str) -> dict[str, str]:
    helpers = {}
    if value != "-":
        for item in value.split():
            helper, _, digest = item.rpartition("@")
            helpers[helper] = digest
    return helpers


def _write_packages(packages: dict[str, str]) -> str:
    return " ".join(f"{name}=={version}" for name, version in sorted(packages.items())) or "-"


def _read_packages(value: str) -> dict[str, str]:
    packages = {}
    if value != "-":
        for item in value.split():
            name, sep, version = item.partition("==")
            if not sep or not name or not version:
                raise ValueError(f"'{item[:80]}' is not name==version")
            packages[name] = version
    return packages


# The one description of a record's header, in the order the lines are written: the writer, the
# parser and FIELDS all come from it. Every attribute of Record but `output` (the text after the
# separator) is here; a test holds the two together.
RECORD_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("snippet", "snippet"),
    FieldSpec("device", "device"),
    FieldSpec("status", "status", read=_status),
    FieldSpec("error-type", "error_type", write=lambda v: v or "-",
              read=lambda v: "" if v == "-" else v),
    FieldSpec("stale", "stale", write=lambda v: f"yes: {v}" if v else "no",
              read=lambda v: "" if v == "no" else v.removeprefix("yes: ")),
    FieldSpec("key", "key"),
    FieldSpec("source-sha256", "source_sha256"),
    FieldSpec("helpers", "helpers", write=_write_helpers, read=_read_helpers),
    FieldSpec("packages", "packages", write=_write_packages, read=_read_packages, optional=True),
    FieldSpec("engine", "engine"),
    FieldSpec("torch", "torch"),
    FieldSpec("python", "python"),
    FieldSpec("hardware", "hardware"),
    FieldSpec("duration-s", "duration_s", write=lambda v: f"{v:.2f}", read=float),
    FieldSpec("peak-rss-mib", "peak_rss_mib", write=lambda v: f"{v:.0f}", read=float),
    FieldSpec("recorded", "recorded"),
)
FIELDS = tuple(spec.header for spec in RECORD_FIELDS)
# The header's last line: derived from the rest (Record.result_digest), so it is no attribute.
DIGEST_FIELD = "result-sha256"
_BY_HEADER = {spec.header: spec for spec in RECORD_FIELDS}


def parse_record(text: str, path: Path | str = "<record>") -> Record:
    lines = text.split("\n")
    if not lines or lines[0] != BANNER:
        raise RecordError(f"{path}:1: not a snippet record (first line should be '{BANNER}'). "
                          "Delete it and re-run: python scripts/snippets.py run")
    values: dict[str, tuple[int, str]] = {}  # header -> (line number, value)
    for index, line in enumerate(lines[1:], start=2):
        if line == SEPARATOR:
            output = "\n".join(lines[index:])
            break
        if not line and index == len(lines):
            continue  # the file ends before the separator: reported as truncated below
        name, sep, value = line.partition(": ")
        if not sep:
            raise RecordError(f"{path}:{index}: unexpected header line '{line[:80]}'. "
                              "Records are written by the engine; re-run the snippet to rewrite it")
        if name not in _BY_HEADER and name != DIGEST_FIELD:
            raise RecordError(f"{path}:{index}: unknown header field '{name[:80]}' (a record has "
                              f"{', '.join((*FIELDS, DIGEST_FIELD))}). Records are written by the "
                              "engine; re-run the snippet to rewrite it")
        if name in values:
            raise RecordError(f"{path}:{index}: header field '{name}' is given twice (first on "
                              f"line {values[name][0]}). Re-run the snippet to rewrite it")
        values[name] = (index, value)
    else:
        raise RecordError(f"{path}: no '{SEPARATOR}' line; the record is truncated. "
                          "Re-run the snippet to rewrite it")
    missing = [spec.header for spec in RECORD_FIELDS
               if spec.header not in values and not spec.optional]
    missing += [DIGEST_FIELD] if DIGEST_FIELD not in values else []
    if missing:
        raise RecordError(f"{path}: header lacks {', '.join(missing)}. Re-run the snippet")
    parsed: dict[str, Any] = {}
    digest = values.pop(DIGEST_FIELD)[1]
    for name, (index, value) in values.items():
        spec = _BY_HEADER[name]
        try:
            parsed[spec.attr] = spec.read(value)
        except ValueError as exc:
            raise RecordError(f"{path}:{index}: malformed {name} value '{value[:80]}' ({exc}). "
                              "Re-run the snippet") from None
    record = Record(output=output, **parsed)
    if digest != record.result_digest:
        raise RecordError(
            f"{path}: what it says the run printed was edited after the run wrote it (its "
            f"{DIGEST_FIELD} does not match its snippet, device, status, error-type, key and "
            "output). Nothing a page shows as output may be typed by hand: re-run the snippet "
            "(python scripts/snippets.py run PATH) to record what it really prints")
    return record


def read_record(path: Path) -> Record | None:
    """The record at `path`, or None when there is none."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not UTF-8 text ({exc}). Delete it and re-run: "
                          "python scripts/snippets.py run") from None
    return parse_record(text, path)


def misplaced(record: Record, snippet: Snippet, device: str) -> str:
    """Why `record` does not stand for `snippet` on `device`, or "": the key holds no path, so a
    record copied or renamed together with its snippet would match its key, though its output
    may print the path it was recorded at (a traceback, a printed `__file__`)."""
    if (record.snippet, record.device) == (snippet.rel, device):
        return ""
    return (f"this is the record of {record.snippet} [{record.device}], copied or renamed "
            f"here with its snippet; re-run {snippet.rel} to record it at its own path")


def copy_without_records(root: Path, dest: Path) -> None:
    """Copy `root`/snippets to `dest`/snippets with no record in it (nor __pycache__): a scratch
    bank for a run whose records must not be the committed ones (a drift run, a benchmark, a
    test). Which files are records is `discovery.all_records`'s to say, not a pattern here."""
    shutil.copytree(root / "snippets", dest / "snippets",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for record in all_records(dest):
        record.unlink()


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


def _readable(path: Path) -> Record | None:
    """The record at `path`; None when there is none or it is damaged (git conflict markers,
    garbage): a run must rewrite a damaged record, never stop on it."""
    try:
        return read_record(path)
    except RecordError:
        return None


def store(path: Path, new: Record) -> bool:
    """Write `new` unless the committed record already says the same; True when the file changed.
    A damaged record is overwritten."""
    old = _readable(path)
    if (old is not None and old.same_result(new) and old.helpers == new.helpers
            and old.packages == new.packages):
        return False
    write_atomic(path, new.render())
    return True


def mark_stale(path: Path, why: str) -> bool:
    """Keep the last good output but flag it; True when the file changed. A damaged record has
    no good output to keep: it is left as it is, and `check` goes on reporting it damaged."""
    old = _readable(path)
    if old is None:
        return False
    new = old.marked_stale(why)
    if new.render() == old.render():
        return False
    write_atomic(path, new.render())
    return True
