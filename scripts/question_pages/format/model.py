"""The page format's vocabulary: levels, importance, sections, and the parsed page."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

LEVELS = ("junior", "middle", "senior", "principal")
IMPORTANCE = ("must know", "should know", "nice to know")
WORDS_PER_MINUTE = 150  # a calm interview pace; the stated rate for every speaking time shown

# (title, anchor) in the order a page must give them.
SECTIONS = (
    ("Short answer", "short-answer"),
    ("Basics", "basics"),
    ("Solid answer", "solid-answer"),
    ("Code", "code"),
    ("Go deeper", "go-deeper"),
    ("Explainer", "explainer"),
    ("Follow-ups", "follow-ups"),
    ("Red flags", "red-flags"),
    ("Sources", "sources"),
)
GENERATED_ANCHORS = ("related-questions",)
SECTION_TITLES = tuple(title for title, _ in SECTIONS)
ANCHORS = dict(SECTIONS)
GO_DEEPER_LEVELS = ("Junior", "Middle", "Senior", "Principal")
SNIPPET_SECTIONS = ("Code", "Explainer", "Follow-ups")
# Word ranges for the spoken tiers: about 20 s and about 50 s at WORDS_PER_MINUTE (50 and 125
# words; the ranges allow 17 to 22 s and 45 to 53 s). The practice timer announces 20 s and 50 s,
# so a reader who matches the model answer must be on time: a range whose top is 26 s or 56 s let
# every page sit at the top of it (the audits found them all there).
WORD_RANGES = {"Basics": (42, 56), "Solid answer": (112, 132)}
SPEAKING_TARGETS = {"Basics": 20, "Solid answer": 50}  # seconds: what the page tells a reader to aim for
# An editor's estimate of how often a question comes up is not precise to 5%: pages and the index
# show a band, and keep the number in their metadata (a tooltip, data attributes, questions.json).
FREQUENCY_BANDS = ((50, "often"), (30, "sometimes"), (0, "rarely"))  # (lowest percent, band)
# The parts a candidate rehearses, linked from the strip under a question's title.
PAGE_STRIP = ("Short answer", "Basics", "Solid answer", "Code", "Go deeper", "Explainer",
              "Follow-ups", "Red flags")
FRONT_MATTER_KEYS = ("question", "level", "importance", "frequency", "topic", "tags", "related")
# Fields a page may leave out. `search_aliases`: the acronyms and other names of the page's subject
# (`[DDP, DistributedDataParallel]`), which the site search indexes with a high weight and a reader
# never sees on the page (render/page.py, search_aliases_block).
OPTIONAL_FRONT_MATTER_KEYS = ("search_aliases",)
MAX_SEARCH_ALIASES = 6  # a page has one subject: a few names of it, not a list of keywords
MAX_ALIAS_CHARS = 40
FOLLOW_UP_PREFIX = "follow-up-"
FOLLOW_UP_WORDS = 8  # of its question, in a follow-up's anchor


def follow_up_anchors(titles: Sequence[str]) -> list[str]:
    """The anchor of each follow-up on its page, in page order (the id of its <details>, and
    the fragment of its URL in questions.json): `follow-up-` and the first FOLLOW_UP_WORDS words
    of its question as written, lower-case letters and digits joined by hyphens (code marks,
    punctuation and other characters dropped): "Why is `x.grad` None?" gives
    `follow-up-why-is-x-grad-none`. A follow-up whose words repeat an earlier one's on the page
    gets `-2`, `-3`, ... after them. So an anchor depends on its own question's words only (and on
    an earlier follow-up with the same first words): adding, removing or moving another follow-up
    leaves it as it is; rewording its question changes it."""
    anchors: list[str] = []
    for title in titles:
        words = re.findall(r"[a-z0-9]+", title.lower())[:FOLLOW_UP_WORDS]
        base = FOLLOW_UP_PREFIX + "-".join(words) if words else FOLLOW_UP_PREFIX.rstrip("-")
        anchor, count = base, 1
        while anchor in anchors:
            count += 1
            anchor = f"{base}-{count}"
        anchors.append(anchor)
    return anchors


@dataclass
class Subsection:
    title: str
    line: int
    body: list[tuple[int, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(line for _, line in self.body).strip()


@dataclass
class Section:
    title: str
    line: int
    body: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)
    subsections: list[Subsection] = field(default_factory=list)
    intro: list[tuple[int, str]] = field(default_factory=list)  # body before the first ###

    @property
    def text(self) -> str:
        return "\n".join(line for _, line in self.body).strip()

    @property
    def intro_text(self) -> str:
        return "\n".join(line for _, line in self.intro).strip()


@dataclass
class Page:
    path: Path  # absolute
    rel: str  # as shown in errors, e.g. docs/export/x.md
    page_id: str  # docs-relative without .md, e.g. export/x
    meta: dict
    meta_lines: dict[str, int]
    sections: list[Section]
    preamble: list[tuple[int, str]]  # lines between front matter and the first ## heading
    body_start: int
    # The sections' lines hold the text without its ties (format/ties.py), so that nothing that
    # reads a sentence counts or copies a marker; the lines as written, by number, are here for
    # the rendering and the ties' checks.
    raw: dict[int, str] = field(default_factory=dict)

    def section(self, title: str) -> Section | None:
        return next((s for s in self.sections if s.title == title), None)

    @property
    def question(self) -> str:
        return str(self.meta.get("question", ""))


@dataclass(frozen=True, order=True)
class PageError:
    """One problem in the site's sources: the file, the line, what is wrong and how to fix it."""

    rel: str  # repository-relative, e.g. docs/export/x.md
    line: int
    what: str
    fix: str

    def __str__(self) -> str:
        return f"{self.rel}:{self.line}: {self.what}. {self.fix}"


def frequency_band(percent: int) -> str:
    return next(band for lowest, band in FREQUENCY_BANDS if percent >= lowest)


def speaking_seconds(words: int) -> int:
    return round(words * 60 / WORDS_PER_MINUTE)
