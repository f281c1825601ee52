"""Ties: a sentence of a page tied to the evidence that proves it, checked at every build.

A page says "every claim is shown by a snippet's output or the 2.13.0 source"; a tie makes that
claim checkable, sentence by sentence. It is written at the end of the sentence (or bullet, table
cell, red flag) it backs:

- `[[out core/views.py: "shares storage: True"]]`: the snippet `snippets/core/views.py`, shown on
  this page, printed that exact text in its CPU record;
- `[[out core/views.py: /grad_fn=<\\w+Backward0>/]]`: the same with a regular expression;
- `[[out@cpu,cuda core/views.py: "..."]]`: the text must be in the record of each device named
  (a device whose record does not exist fails: no sentence may claim an output that is missing);
- `[[src torch/nn/parallel/distributed.py: "static_graph or not find_unused_parameters"]]`: the
  quoted fragment is in that file of the installed pinned torch; the page links the line of that
  release's source where it is, found at build time (no line number is typed by hand).

The page format strips the markers before anything reads the text (word counts, questions.json,
the decks, the share text), so a tie never changes what a sentence says; the rendering shows each
as a small link, to the highlighted output line or to the source line. This module is the syntax
and where a tie's fragment is found; `validate` reports the ties that do not hold, and
`render.ties` draws them.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from snippet_engine.errors import ProjectError
from snippet_engine.records.pins import release

# One marker. The fragment is a double-quoted string (\" and \\ escape) or a /regex/ (\/ escapes).
TIE = re.compile(
    r"\s*\[\[(?P<kind>out|src)(?:@(?P<devices>[a-z]+(?:,[a-z]+)*))?\s+(?P<ref>[\w./-]+)\s*:\s*"
    r"(?:\"(?P<text>(?:[^\"\\]|\\.)*)\"|/(?P<pattern>(?:[^/\\]|\\.)*)/)\s*\]\]")
# Anything that starts like a marker, to report one that TIE cannot read.
TIE_ATTEMPT = re.compile(r"\[\[\s*(?:out|src)\b")
# Where the source of a pinned package is published, per top-level package: {release} is the
# installed version, {path} the file under site-packages, {start} and {end} its lines.
SOURCE_URLS = {"torch": "https://github.com/pytorch/pytorch/blob/v{release}/{path}#L{start}-L{end}"}
SYNTAX = ('[[out topic/name.py: "text it printed"]] or [[src torch/path/file.py: "a fragment of '
          'that file"]], at the end of the sentence it backs')


@dataclass(frozen=True)
class Tie:
    """One marker of a page: where it is, what it names and what must be found there."""

    line: int  # the page's line number
    kind: str  # "out" (a snippet's record) or "src" (a pinned package's source file)
    ref: str  # out: the snippet under snippets/; src: the file under site-packages
    devices: tuple[str, ...]  # out: the records that must hold it ("cpu" unless named)
    text: str | None  # the exact fragment, unescaped; None for a pattern
    pattern: str | None  # a regular expression (re.MULTILINE); None for an exact fragment
    sentence: str  # the line it stands on, markers removed: what an error quotes
    start: int = 0  # where the marker starts in the line as written

    @property
    def fragment(self) -> str:
        """The fragment as the page writes it, for messages."""
        return f'"{self.text}"' if self.text is not None else f"/{self.pattern}/"

    def find(self, haystack: str) -> tuple[int, int] | None:
        """(start, end) offsets of the fragment in `haystack`, or None."""
        if self.text is not None:
            start = haystack.find(self.text)
            return None if start < 0 or not self.text else (start, start + len(self.text))
        match = re.search(self.pattern or "", haystack, re.MULTILINE)
        return (match.start(), match.end()) if match and match.end() > match.start() else None


def _unescape(text: str, quote: str) -> str:
    return re.sub(r"\\(.)", lambda m: m.group(1) if m.group(1) in (quote, "\\") else m.group(0), text)


def strip_ties(line: str) -> str:
    """The line as it reads without its markers (and the space before each)."""
    return TIE.sub("", line)


def line_ties(number: int, line: str) -> list[Tie]:
    """The well-formed markers of one line."""
    sentence = strip_ties(line).strip().lstrip("-*+ ").strip()
    ties = []
    for match in TIE.finditer(line):
        text, pattern = match.group("text"), match.group("pattern")
        devices = tuple(match.group("devices").split(",")) if match.group("devices") else ("cpu",)
        ties.append(Tie(number, match.group("kind"), match.group("ref"),
                        devices if match.group("kind") == "out" else (),
                        _unescape(text, '"') if text is not None else None,
                        _unescape(pattern, "/") if pattern is not None else None, sentence,
                        match.start()))
    return ties


_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+\.\s|#|\||>|```|!!!|\?\?\?|===)")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'*_`)\]]*\s+")


def tied_sentence(lines: dict[int, str], tie: Tie, raw: str) -> str:
    """The sentence a tie backs, for a reader: the text before its marker back to the previous
    sentence's end, over the paragraph's earlier lines (`lines`: the page's lines by number,
    markers removed; `raw`: the tie's line as written). A bullet or table row is its own start."""
    parts = [strip_ties(raw[:tie.start]).strip()]
    number = tie.line - 1
    while not _BLOCK_START.match(raw) and number in lines and lines[number].strip():
        line = lines[number]
        parts.insert(0, line.strip())
        if _BLOCK_START.match(line):
            break
        number -= 1
    text = re.sub(r"^(?:[-*+]|\d+\.)\s+", "", " ".join(p for p in parts if p))
    pieces = [piece for piece in _SENTENCE_END.split(text) if piece.strip()]
    return pieces[-1].strip() if pieces else tie.sentence


def malformed(line: str) -> bool:
    """Whether the line holds something that starts like a marker and is not one."""
    return bool(TIE_ATTEMPT.search(strip_ties(line)))


def line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The 1-based first and last line of text[start:end]."""
    first = text.count("\n", 0, start) + 1
    return first, first + text.count("\n", start, max(start, end - 1))


@dataclass(frozen=True)
class SourceLine:
    """Where a source tie's fragment is: the file, its lines and the link to them."""

    path: Path
    start: int
    end: int
    url: str


def package_root(site_packages: Path, ref: str) -> tuple[str, Path] | None:
    """(top-level package, file) of a source ref such as torch/nn/modules/module.py, or None
    when the package has no published source known here."""
    package = ref.split("/", 1)[0]
    if package not in SOURCE_URLS:
        return None
    return package, site_packages / ref


def find_source(site_packages: Path, ref: str, tie: Tie, release: str) -> SourceLine | str:
    """The line of the installed package's file where the tie's fragment is, or why not."""
    found = package_root(site_packages, ref)
    if found is None:
        return (f"'{ref}' is not in a package whose source the site links "
                f"({', '.join(sorted(SOURCE_URLS))})")
    package, path = found
    if not path.is_file():
        return f"{package} {release} has no file {ref}"
    text = path.read_text(encoding="utf-8", errors="replace")
    span = tie.find(text)
    if span is None:
        return f"{tie.fragment} is not in {ref} of {package} {release}"
    start, end = line_span(text, *span)
    return SourceLine(path, start, end, SOURCE_URLS[package].format(
        release=release, path=ref, start=start, end=end))


@cache
def site_packages() -> Path:
    """The folder the installed pinned packages are in (where torch is), found without importing
    torch."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise ProjectError("torch is not installed: run scripts/dev.sh setup")
    return Path(spec.origin).parent.parent


@cache
def installed_release(package: str) -> str:
    """The installed release of a package, without a local build tag ("2.13.0")."""
    return release(importlib.metadata.version(package))


def page_ties(raw: dict[int, str]) -> list[Tie]:
    """Every well-formed tie of a page's raw lines (Page.raw), in line order."""
    return [tie for number, line in sorted(raw.items()) for tie in line_ties(number, line)]


@dataclass(frozen=True)
class Coverage:
    """How much of one page says where it is proven: the short answer's bullets and the red
    flags (each must carry a tie), and the ties elsewhere (explainer, follow-ups, answers)."""

    page_id: str
    bullets: int
    bullets_tied: int
    red_flags: int
    red_flags_tied: int
    other_ties: int  # ties outside the short answer and red flags
    source_ties: int  # of all the page's ties, those to the torch source

    def row(self) -> str:
        return (f"{self.page_id}: bullets {self.bullets_tied}/{self.bullets}, red flags "
                f"{self.red_flags_tied}/{self.red_flags}, {self.other_ties} more in the explainer "
                f"and answers, {self.source_ties} of all to the source")


def _items(body: list[tuple[int, str]]) -> list[list[int]]:
    """The line numbers of each '- ' bullet of a section body, continuation lines included."""
    items: list[list[int]] = []
    for number, line in body:
        if re.match(r"^\s*[-*+]\s+\S", line):
            items.append([number])
        elif items and line.strip() and line.startswith((" ", "\t")):
            items[-1].append(number)
    return items


def coverage(page_id: str, sections: dict[str, list[tuple[int, str]]], raw: dict[int, str]) -> Coverage:
    """A page's coverage from its sections' bodies (title -> lines) and its raw lines."""
    def tied(lines: list[int]) -> bool:
        return any(line_ties(n, raw[n]) for n in lines if n in raw)

    bullets = _items(sections.get("Short answer", []))
    flags = _items(sections.get("Red flags", []))
    counted = {n for item in bullets + flags for n in item}
    ties = page_ties(raw)
    return Coverage(page_id, len(bullets), sum(map(tied, bullets)), len(flags), sum(map(tied, flags)),
                    sum(1 for tie in ties if tie.line not in counted),
                    sum(1 for tie in ties if tie.kind == "src"))
