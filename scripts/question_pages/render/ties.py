"""Ties as a reader meets them: a small mark after the sentence, a link to its evidence.

An output tie's mark links to the output line on the same page (`#<block id>-L<n>`): the block's
tied lines are marked in the Markdown (`hl_lines`, by `snippet_blocks`), and after the build
`line_ids` gives each marked line its id, so the browser scrolls to it and `:target` highlights
it with no script (site.css; ties.js also opens a fold the line is in). A source tie's mark links
to the line of the pinned release's source where its fragment was found at build time. Each mark
is a plain link with a label that says where it goes, so it works from the keyboard, by screen
reader and without JavaScript; practice mode hides it with the answer it stands in.
"""

from __future__ import annotations

import html
import re

from question_pages.format.model import Page
from question_pages.format.ties import (
    TIE,
    Tie,
    find_source,
    installed_release,
    line_ties,
    page_ties,
    site_packages,
)
from question_pages.render.snippet_blocks import DEVICE_LABELS, tie_location
from snippet_engine.records.status import StatusBook


def _mark(kind: str, href: str, label: str, glyph: str) -> str:
    label = html.escape(label, quote=True)
    return (f'<a class="tie tie-{kind}" href="{html.escape(href, quote=True)}" title="{label}" '
            f'aria-label="{label}">{glyph}</a>')


def mark(tie: Tie, book: StatusBook) -> str:
    """The link a tie becomes; empty when it cannot be placed (check_pages reports why)."""
    if tie.kind == "src":
        found = find_source(site_packages(), tie.ref, tie, installed_release("torch"))
        if isinstance(found, str):
            return ""
        lines = f"line {found.start}" if found.start == found.end else f"lines {found.start}-{found.end}"
        return _mark("src", found.url, f"Evidence: {tie.ref}, {lines}, in the torch "
                     f"{installed_release('torch')} source", "↗")
    try:
        status = book.status(tie.ref)
    except (FileNotFoundError, ValueError):
        return ""
    device = tie.devices[0]
    record = status.on(device).record if device in status.devices else None
    where = tie_location(record, tie.ref, tie) if record is not None else None
    if where is None:
        return ""
    block, first, last = where
    lines = f"line {first}" if first == last else f"lines {first}-{last}"
    return _mark("out", f"#{block}-L{first}", f"Evidence: {lines} of the {DEVICE_LABELS[device]} "
                 f"output of snippets/{tie.ref}, below", "↓")


def marked_lines(page: Page, book: StatusBook) -> dict[int, str]:
    """{line number: the line as written, each tie replaced by its mark}, for the lines that
    hold ties (the others render as they are)."""
    marked = {}
    for number, line in page.raw.items():
        marks = [mark(tie, book) for tie in line_ties(number, line)]
        out, last = [], 0
        for match, link in zip(TIE.finditer(line), marks, strict=True):
            out += [line[last:match.start()], " " + link if link else ""]
            last = match.end()
        marked[number] = "".join(out) + line[last:]
    return marked


def ties_by_snippet(page: Page) -> dict[str, list[Tie]]:
    """The page's output ties, by the snippet they point at."""
    found: dict[str, list[Tie]] = {}
    for tie in page_ties(page.raw):
        if tie.kind == "out":
            found.setdefault(tie.ref, []).append(tie)
    return found


_BLOCK = re.compile(r'<div id="(out-[a-z0-9-]+)" class="highlight">(.*?)</code>', re.DOTALL)


def line_ids(page_html: str) -> str:
    """Give each marked line (`<span class="hll">`) of a tied output block the id its marks link
    to, `<block id>-L<line>`: the line is counted from the block's text, so it is the same line
    the mark names."""
    def number_lines(match: re.Match[str]) -> str:
        block, body = match.group(1), match.group(2)
        code = body.find("<code")
        out, last = [], 0
        for span in re.finditer(r'<span class="hll">', body):
            line = body.count("\n", code, span.start()) + 1
            out += [body[last:span.start()], f'<span class="hll" id="{block}-L{line}">']
            last = span.end()
        out.append(body[last:])
        return f'<div id="{block}" class="highlight">' + "".join(out) + "</code>"
    return _BLOCK.sub(number_lines, page_html)
