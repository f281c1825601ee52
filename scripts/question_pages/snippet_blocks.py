"""A snippet on a page: its source, then one tab per device with the recorded output.

The output goes into a fenced `text` block, so the Markdown renderer escapes it: a snippet that
prints `<script>` shows that text. What is shown for a device is decided here, plainly: a current
record with its provenance, a record made with another torch (labelled), a stale record (labelled,
never passed off as current), or no record at all.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Mapping

from snippet_engine.options import DEVICES
from snippet_engine.pins import release
from snippet_engine.preview import PreviewFailure
from snippet_engine.records import Record
from snippet_engine.status import SnippetStatus, StatusBook

DEVICE_LABELS = {"cpu": "CPU", "cuda": "CUDA"}


def fence(text: str, lang: str, attrs: str = "") -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    head = f"{ticks}{lang}" + (f" {attrs}" if attrs else "")
    return f"{head}\n{body}{ticks}"


def indent(text: str, spaces: int = 4) -> str:
    return textwrap.indent(text, " " * spaces, lambda line: True).replace(" " * spaces + "\n", "\n")


def split_expected_error(record: Record) -> tuple[str, str]:
    """(what the snippet printed, the error it raised) of an expected-error record.

    The engine records the error last, as Python prints it: 'module.Class: message', the message
    possibly spanning lines; it starts at the last line that begins with the class name.
    """
    lines = record.output.rstrip("\n").split("\n")
    names = (record.error_type, record.error_type.rsplit(".", 1)[-1])
    for index in range(len(lines) - 1, -1, -1):
        if any(lines[index] == name or lines[index].startswith(name + ":") for name in names):
            printed = "\n".join(lines[:index])
            return (printed + "\n" if printed else ""), "\n".join(lines[index:]) + "\n"
    return "", record.output


def provenance(record: Record, pinned: str) -> str:
    date = record.recorded.split("T")[0]
    line = (f"Recorded {date} with torch {record.torch}, Python {record.python}, on "
            f"{record.hardware}, in {record.duration_s:.1f} s.")
    if release(record.torch) != pinned:
        line += f" **Not the pinned torch {pinned}**: this output may differ on {pinned}."
    return line


def preview_failure_box(failure: PreviewFailure) -> str:
    """A failed run in a live preview: marked as such, above whatever record there is."""
    text = f"{failure.status}: {failure.message}\n\n{failure.output}"
    fix = f"\n\n{indent(html.escape('Fix: ' + failure.hint))}" if failure.hint else ""
    return (f'!!! failure "Live preview: the current code {failure.status}; nothing was recorded"\n\n'
            + indent(fence(text, "text")) + fix)


def _device_body(status: SnippetStatus, device: str,
                 failure: PreviewFailure | None = None) -> str:
    label = DEVICE_LABELS[device]
    on = status.on(device)
    record = on.record
    if failure is not None:
        rest = _device_body(status, device) if record is not None else ""
        return preview_failure_box(failure) + ("\n\n" + rest if rest else "")
    if record is None:
        how = ("python scripts/snippets.py run --device cuda" if device == "cuda"
               else "python scripts/snippets.py run")
        return (f'!!! note "No {label} record"\n\n'
                f"    This snippet has not been run on {label} yet, so there is no output to show. "
                f"A maintainer with a {label} machine records it with `{how} {status.rel}`.")
    parts = []
    if on.state == "stale" and status.on_pinned_torch(device):
        parts.append(f'!!! warning "Stale {label} record"\n\n'
                     f"    This output was recorded from an earlier version of the snippet ({on.why}). "
                     "It is shown for reference only; the code above may now print something else.")
    parts.append(f"{provenance(record, status.pinned)}\n{{: .snippet-provenance }}")
    if record.status == "expected-error":
        printed, error = split_expected_error(record)
        if printed.strip():
            parts.append(fence(printed, "text"))
        parts.append(f'!!! failure "Raises {record.error_type}, as this snippet intends"\n\n'
                     + indent(fence(error, "text")))
    else:
        parts.append(fence(record.output or "(no output)\n", "text"))
    return "\n\n".join(parts)


def render_snippet(ref: str, book: StatusBook, preview: Mapping[str, PreviewFailure] | None = None,
                   drift_notes: str = "") -> str:
    """Material Markdown for `{{ snippet("ref") }}`; ref is relative to snippets/. `book`: the
    statuses the checks read. `preview`: the failed runs a live preview shows, by snippet path
    (snippets/...). `drift_notes`: what the committed drift reports say of it, under its outputs."""
    status = book.status(ref)
    rel = status.rel
    source = status.path.read_text(encoding="utf-8")
    devices = status.options.devices
    title = f'title="{rel}"'
    blocks = [fence(source, "python", title) + "\n"]
    for device in DEVICES:
        label = DEVICE_LABELS[device]
        if device in devices:
            failure = (preview or {}).get(rel) if device == "cpu" else None
            body = _device_body(status, device, failure)
        else:
            body = f"This snippet is not recorded on {label}: it declares `#| devices: {', '.join(devices)}`."
        blocks.append(f'=== "{label}"\n\n{indent(body)}\n')
    # Code and outputs stay out of the search index (Material skips `data-search-exclude`):
    # they are most of a page's text, and the index is fetched on every first visit. A
    # <section>, not a <div>: Material's search parser matches closing tags by name only, so
    # the first inner </div> would end the exclusion.
    if drift_notes:
        blocks.append(drift_notes + "\n")
    return ('<section class="snippet" data-search-exclude="true" markdown>\n\n'
            + "\n".join(blocks) + "\n</section>")
