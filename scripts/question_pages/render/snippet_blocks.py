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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from question_pages.format.ties import Tie, line_span
from question_pages.render.folding import fold
from question_pages.render.search_names import names_block
from snippet_engine.execution.preview import PreviewFailure
from snippet_engine.records.pins import release
from snippet_engine.records.status import DEVICES, Record, SnippetOptions, SnippetStatus, StatusBook

DEVICE_LABELS = {"cpu": "CPU", "cuda": "CUDA"}


def fence(text: str, lang: str, attrs: str = "") -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    head = f"{ticks}{lang}" + (f" {attrs}" if attrs and lang else attrs)  # lang "": attrs '{.x}'
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
    label = DEVICE_LABELS.get(record.device, record.device)
    line = (f"{label} output, recorded {date} with torch {record.torch}, Python {record.python}, "
            f"on {record.hardware}, in {record.duration_s:.1f} s.")
    if release(record.torch) != pinned:
        line += f" **Not the pinned torch {pinned}**: this output may differ on {pinned}."
    return line


def displayed_source(source: str, options: SnippetOptions) -> tuple[str, int]:
    """(the code a reader sees and copies, the file's line number of its first line).

    The `#|` option lines are the engine's, not the lesson's: the page shows what they mean as
    badges instead. The line numbers still count from the file, so that a traceback's "line 9"
    points at line 9 of what is shown."""
    lines = source.split("\n")
    hidden = set(options.lines.values())
    first = 1
    while first <= len(lines) and (first in hidden or (not lines[first - 1].strip()
                                                       and first - 1 in hidden)):
        first += 1
    body = [line for number, line in enumerate(lines, start=1)
            if number >= first and number not in hidden]
    return "\n".join(body), first


def _cites_its_lines(status: SnippetStatus) -> bool:
    """Whether an output names a line of the snippet (a traceback's `line 9`, a graph's `x.py:9`):
    only then is the code numbered, from the file's numbers. Numbering every snippet would cost
    every page a table per block and hundreds of elements to lay out."""
    cited = re.compile(re.escape(status.rel) + r'(?::\d|", line \d)')
    return any(on.record is not None and cited.search(on.record.output)
               for on in status.devices.values())


def option_badges(options: SnippetOptions) -> list[str]:
    """What the snippet's `#|` options mean to a reader, in words."""
    badges = []
    if options.expect:
        badges.append(f"Raises {options.expect.rsplit('.', 1)[-1]} on purpose")
    if tuple(options.devices) != DEVICES:
        badges.append(" and ".join(DEVICE_LABELS[d] for d in options.devices) + " only")
    if options.fresh:
        badges.append("Runs in a fresh Python process")
    if "timeout" in options.lines:
        badges.append(f"Slow: allowed up to {options.timeout:g} s")
    return badges


def _badges_html(badges: list[str]) -> str:
    spans = "".join(f'<span class="snippet-badge">{html.escape(b)}</span>' for b in badges)
    return f'<p class="snippet-badges">{spans}</p>'


@dataclass(frozen=True)
class OutputBlock:
    """One fenced block of a device's output as the page shows it: what the snippet printed
    ("out"), or, for an expected error, what it printed before it ("printed") and the error
    ("error"); "full" is the whole record, one click away, when the others fold some lines."""

    part: str
    text: str


def output_blocks(record: Record) -> tuple[list[OutputBlock], int]:
    """The blocks a device's record is shown in, in page order, and how many lines they fold."""
    blocks, folded = [], 0
    if record.status == "expected-error":
        printed, error = split_expected_error(record)
        pieces = ([("printed", printed, record.output)] if printed.strip() else []) + [
            ("error", error, None)]
    else:
        pieces = [("out", record.output or "(no output)\n", None)]
    for part, text, whole in pieces:
        shown = fold(text, whole)
        blocks.append(OutputBlock(part, text if shown is None else shown.shown))
        folded += 0 if shown is None else shown.folded
    if folded:
        blocks.append(OutputBlock("full", record.output))
    return blocks, folded


def block_id(ref: str, device: str, part: str) -> str:
    """The HTML id of one output block (a tie's mark links to its lines: `<id>-L<n>`)."""
    return "out-" + re.sub(r"[^a-z0-9]+", "-", f"{ref.removesuffix('.py')}-{device}-{part}".lower())


def tie_location(record: Record, ref: str, tie: Tie) -> tuple[str, int, int] | None:
    """(block id, first line, last line) of the first shown block that holds the tie's fragment;
    the whole record's block when only the folded lines hold it; None when no block does."""
    for block in output_blocks(record)[0]:
        span = tie.find(block.text)
        if span is not None:
            first, last = shown_lines(block.text, *span)
            return (block_id(ref, record.device, block.part), first, last)
    return None


def shown_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """The lines of `text[start:end]` as the highlighted block numbers them: Pygments drops the
    blank lines a block starts with (a record can begin with an empty print), so its line 1 is
    the text's first non-blank line, and so are `hl_lines` and the ids the marks link to."""
    first, last = line_span(text, start, end)
    skipped = len(text) - len(text.lstrip("\n"))
    return max(first - skipped, 1), max(last - skipped, 1)


def _output(block: OutputBlock, ref: str, device: str, ties: Sequence[Tie]) -> str:
    """A fenced output block; the lines that ties point at are marked (hl_lines) and the block
    has an id, so each line gets one after the build (render.ties.line_ids) for a mark to target."""
    lines: set[int] = set()
    for tie in ties:
        span = tie.find(block.text)
        if span is not None:
            first, last = shown_lines(block.text, *span)
            lines.update(range(first, last + 1))
    if not lines:
        return fence(block.text, "text")
    numbers = " ".join(str(n) for n in sorted(lines))
    return fence(block.text, "", f'{{.text #{block_id(ref, device, block.part)} hl_lines="{numbers}"}}')


def preview_failure_box(failure: PreviewFailure) -> str:
    """A failed run in a live preview: marked as such, above whatever record there is."""
    text = f"{failure.status}: {failure.message}\n\n{failure.output}"
    fix = f"\n\n{indent(html.escape('Fix: ' + failure.hint))}" if failure.hint else ""
    return (f'!!! failure "Live preview: the current code {failure.status}; nothing was recorded"\n\n'
            + indent(fence(text, "text")) + fix)


def _device_body(status: SnippetStatus, device: str,
                 failure: PreviewFailure | None = None, ties: Sequence[Tie] = ()) -> str:
    label = DEVICE_LABELS[device]
    on = status.on(device)
    record = on.record
    if failure is not None:
        rest = _device_body(status, device) if record is not None else ""
        return preview_failure_box(failure) + ("\n\n" + rest if rest else "")
    if record is None:  # only a live preview shows a page whose CPU record is missing
        return f"No {label} output is recorded for this snippet yet.\n{{: .snippet-unrecorded }}"
    parts = []
    if on.state == "stale" and status.on_pinned_torch(device):
        parts.append(f'!!! warning "Stale {label} record"\n\n'
                     f"    This output was recorded from an earlier version of the snippet ({on.why}). "
                     "It is shown for reference only; the code above may now print something else.")
    parts.append(f"{provenance(record, status.pinned)}\n{{: .snippet-provenance }}")
    blocks, folded = output_blocks(record)
    for block in blocks:
        text = _output(block, status.ref, device, ties)
        if block.part == "error":
            parts.append(f'!!! failure "Raises {record.error_type}, as this snippet intends"\n\n'
                         + indent(text))
        elif block.part == "full":
            total = len(record.output.rstrip("\n").split("\n"))
            parts.append(f"{folded} lines of torch's debugging hints and traced-graph dumps are "
                         "left out here; the full output is below.\n{: .snippet-folded }")
            parts.append(f'??? note "The full output, as recorded ({total} lines)"\n\n'
                         + indent(text))
        else:
            parts.append(text)
    return "\n\n".join(parts)


def _unrecorded_line(status: SnippetStatus, shown: list[str]) -> str:
    """One quiet line for the devices without an output: never an empty tab."""
    missing = [DEVICE_LABELS[d] for d in DEVICES if d not in shown and status.on(d).declared]
    undeclared = [DEVICE_LABELS[d] for d in DEVICES if not status.on(d).declared]
    if tuple(status.options.devices) == ("cuda",) and not shown:
        return ("Not recorded yet: this snippet runs on CUDA only, and its output is recorded by "
                "the project's GPU workflow on a CUDA runner, which has not recorded it. No output "
                "is shown.\n{: .snippet-unrecorded "
                ".snippet-awaiting-gpu }")
    said = []
    if missing:
        said.append(f"Not recorded on {' or '.join(missing)} yet.")
    if undeclared:
        said.append(f"Not run on {' or '.join(undeclared)}: the snippet is for "
                    f"{' and '.join(DEVICE_LABELS[d] for d in status.options.devices)} only.")
    return " ".join(said) + "\n{: .snippet-unrecorded }" if said else ""


def render_snippet(ref: str, book: StatusBook, preview: Mapping[str, PreviewFailure] | None = None,
                   drift_notes: str = "", ties: Sequence[Tie] = (),
                   searched_names: bool = True) -> str:
    """Material Markdown for `{{ snippet("ref") }}`; ref is relative to snippets/. `book`: the
    statuses the checks read. `preview`: the failed runs a live preview shows, by snippet path
    (snippets/...). `drift_notes`: what the committed drift reports say of it, under its outputs.
    `searched_names`: whether the PyTorch names its code uses go into the site search."""
    status = book.status(ref)
    rel = status.rel
    code, first = displayed_source(status.path.read_text(encoding="utf-8"), status.options)
    blocks = []
    badges = option_badges(status.options)
    if badges:
        blocks.append(_badges_html(badges) + "\n")
    numbers = f' linenums="{first}"' if _cites_its_lines(status) else ""
    blocks.append(fence(code, "python", f'title="{rel}"{numbers}') + "\n")
    failures = {"cpu": (preview or {}).get(rel)}
    shown = [d for d in status.options.devices
             if status.on(d).record is not None or failures.get(d) is not None]
    bodies = {d: _device_body(status, d, failures.get(d),
                              [tie for tie in ties if d in tie.devices]) for d in shown}
    if len(shown) > 1:
        blocks += [f'=== "{DEVICE_LABELS[d]}"\n\n{indent(bodies[d])}\n' for d in shown]
    else:
        blocks += [bodies[d] + "\n" for d in shown]
    quiet = _unrecorded_line(status, shown)
    if quiet:
        blocks.append(quiet + "\n")
    # Code and outputs stay out of the search index (Material skips `data-search-exclude`):
    # they are most of a page's text, and the index is fetched on every first visit. A
    # <section>, not a <div>: Material's search parser matches closing tags by name only, so
    # the first inner </div> would end the exclusion.
    if drift_notes:
        blocks.append(drift_notes + "\n")
    # The PyTorch names the code uses are indexed, though, as readers type them (search_names.py).
    names = names_block(code) + "\n\n" if searched_names else ""
    return (names + '<section class="snippet" data-search-exclude="true" markdown>\n\n'
            + "\n".join(blocks) + "\n</section>")
