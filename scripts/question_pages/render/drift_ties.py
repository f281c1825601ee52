"""Which sentences stop holding on another torch: the pages' ties (format/ties.py) checked
against a drift report, so a maintainer moving the pin reads first the claims that break.

An output tie is checked against what its snippet printed on the compared torch (the report keeps
that output for every snippet that did not stay unchanged). A source tie is checked against the
compared torch's own file, which only the drift venv has: `check_pages.py --drift-ties X` reads it
there and writes `reports/drift/torch-X-sources.json`, which the build reads (CI has no such
venv). A tie written after that file was made is listed as not yet checked, never as holding.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from question_pages.format.model import Page
from question_pages.format.ties import Tie, find_source, line_span, page_ties, tied_sentence
from question_pages.render.drift_reports import REPORT_DIR, DriftReport
from snippet_engine.records.record_file import read_record
from snippet_engine.source.discovery import Snippet


@dataclass(frozen=True)
class BrokenTie:
    """A sentence whose evidence is not on the compared torch, or was not checked there."""

    page: str  # docs/<topic>/<slug>.md
    line: int
    sentence: str
    tie: str  # what the tie names: "snippets/x.py" or "torch/x.py", and its fragment
    was: str  # the text that proves it on the pinned torch
    now: str  # what the compared torch gives instead, or why it was not checked

    def markdown(self) -> str:
        # The sentence's own links point into its page (`#a-heading`) or relative to it: on the
        # Upgrading torch page they would be broken links, so only their text is kept.
        sentence = _LINK.sub(r"\1", self.sentence)
        return (f"- `{self.page}:{self.line}` *{sentence}* ({self.tie})  \n"
                f"  pinned: `{self.was}`  \n  now: {self.now}")


_LINK = re.compile(r"(?<!!)\[([^\]]*)\]\([^)]*\)")


def sources_path(root: Path, version: str) -> Path:
    return root / REPORT_DIR / f"torch-{version}-sources.json"


def _key(tie: Tie) -> str:
    return f"{tie.ref}\t{tie.fragment}"


def _lines(text: str, span: tuple[int, int]) -> str:
    first, last = line_span(text, *span)
    return " / ".join(text.split("\n")[first - 1:last]).strip()


def _closest(line: str, text: str) -> str:
    lines = [candidate for candidate in text.split("\n") if candidate.strip()]
    close = difflib.get_close_matches(line, lines, n=1, cutoff=0.0)
    return f"closest line `{close[0].strip()}`" if close else "no output"


def _page_lines(page: Page) -> dict[int, str]:
    """The page's lines by number, markers removed (what tied_sentence walks back over)."""
    lines = dict(page.preamble)
    for section in page.sections:
        lines.update(section.body)
        for sub in section.subsections:
            lines.update(sub.body)
    return lines


def _sentence(page: Page, tie: Tie) -> str:
    return tied_sentence(_page_lines(page), tie, page.raw.get(tie.line, tie.sentence))


def _out(page: Page, tie: Tie, root: Path, report: DriftReport) -> BrokenTie | None:
    rel = f"snippets/{tie.ref}"
    entry = report.snippets.get(rel)
    if entry is None or entry.get("class") == "unchanged" or "cpu" not in tie.devices:
        return None  # unchanged holds; an uncompared snippet is `check`'s to report
    record = read_record(Snippet(root / rel, rel).record_path("cpu"))
    span = tie.find(record.output) if record is not None else None
    was = _lines(record.output, span) if record is not None and span is not None else tie.fragment
    now_output = entry.get("now_output")
    if now_output is None:
        now = "not checked: the report predates sentence checks (run the drift again)"
    elif tie.find(now_output) is not None:
        return None
    else:
        now = f"not in the output ({entry.get('now', '?')}); {_closest(was, now_output)}"
    return BrokenTie(page.rel, tie.line, _sentence(page, tie), f"{rel}: {tie.fragment}", was, now)


def _src(page: Page, tie: Tie, checked: dict[str, dict], version: str) -> BrokenTie | None:
    result = checked.get(_key(tie))
    if result is not None and result.get("found"):
        return None
    now = (result.get("why", "not found") if result is not None else
           f"not checked on torch {version} yet: run python scripts/check_pages.py --drift-ties "
           f"{version} (with its drift venv)")
    return BrokenTie(page.rel, tie.line, _sentence(page, tie), f"{tie.ref}: {tie.fragment}",
                     tie.fragment, now)


def broken_ties(pages: list[Page], root: Path, report: DriftReport) -> list[BrokenTie]:
    """Every tied sentence of `pages` that does not hold on the report's torch, in page order."""
    try:
        checked = json.loads(sources_path(root, report.version).read_text(encoding="utf-8"))["ties"]
    except (OSError, ValueError, KeyError):
        checked = {}
    found = []
    for page in sorted(pages, key=lambda p: p.rel):
        for tie in page_ties(page.raw):
            broken = (_out(page, tie, root, report) if tie.kind == "out"
                      else _src(page, tie, checked, report.version))
            if broken is not None:
                found.append(broken)
    return found


def check_sources(pages: list[Page], site_packages: Path, version: str) -> dict[str, dict]:
    """Each source tie of `pages` looked up in another torch's installed files: {key: result}."""
    results: dict[str, dict] = {}
    for page in pages:
        for tie in page_ties(page.raw):
            if tie.kind != "src" or _key(tie) in results:
                continue
            found = find_source(site_packages, tie.ref, tie, version)
            results[_key(tie)] = ({"found": False, "why": found} if isinstance(found, str)
                                  else {"found": True, "line": found.start})
    return dict(sorted(results.items()))


def write_sources(root: Path, version: str, results: dict[str, dict]) -> Path:
    path = sources_path(root, version)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"torch": version, "ties": results}, indent=1, ensure_ascii=False)
                    + "\n", encoding="utf-8")
    return path


def render_section(broken: list[BrokenTie], version: str) -> str:
    """The Upgrading torch page's list for one compared torch."""
    if not broken:
        return (f"Every tied sentence holds on torch {version}: each output tie's text is in what "
                "its snippet printed there, and each source tie's fragment is in its file.")
    pages = sorted({b.page for b in broken})
    out = [f"{len(broken)} tied sentence(s) on {len(pages)} page(s) do not hold on torch {version}, "
           "or were not checked there; read these first when moving the pin:", ""]
    out += [b.markdown() for b in broken]
    return "\n".join(out)
