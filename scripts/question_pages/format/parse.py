"""Read a question page into sections and subsections, keeping every line number for errors, and
the small readings of its text that both the rules and the rendering need (words, bullets, links,
anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from markdown.extensions.toc import slugify

from question_pages.format.model import ANCHORS, GENERATED_ANCHORS, Page, Section, Subsection
from question_pages.format.ties import TIE_ATTEMPT, strip_ties
from snippet_engine.errors import ProjectError

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
BULLET = re.compile(r"^\s*[-*+]\s+\S")
LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")


class FrontMatterError(ProjectError, ValueError):
    """Front matter that cannot be read at all; the page is left out and this is its one error."""

    def __init__(self, line: int, what: str, fix: str) -> None:
        super().__init__(f"{what}. {fix}")
        self.line, self.what, self.fix = line, what, fix


def split_front_matter(text: str) -> tuple[dict, dict[str, int], int]:
    """(meta, {key: line}, first body line number). Raises FrontMatterError."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise FrontMatterError(1, "the page has no YAML front matter",
                               "Start it with a '---' line, the fields (question, level, ...) and "
                               "another '---' line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise FrontMatterError(1, "the front matter is not closed", "Add a '---' line after it") from None
    block = "\n".join(lines[1:end])
    try:
        meta = yaml.safe_load(block) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        raise FrontMatterError(line, f"the front matter is not valid YAML ({getattr(exc, 'problem', exc)})",
                               "Quote values that contain ':' or '#'") from None
    if not isinstance(meta, dict):
        raise FrontMatterError(2, "the front matter is not a list of fields",
                               "Write it as 'key: value' lines")
    key_lines: dict[str, int] = {}
    for index in range(1, end):
        match = re.match(r"^([A-Za-z_][\w-]*)\s*:", lines[index])
        if match:
            key_lines.setdefault(match.group(1), index + 1)
    return meta, key_lines, end + 2


def parse_page(path: Path, docs_dir: Path, text: str | None = None) -> Page:
    text = path.read_text(encoding="utf-8") if text is None else text
    meta, key_lines, body_start = split_front_matter(text)
    lines = text.split("\n")
    sections: list[Section] = []
    preamble: list[tuple[int, str]] = []
    in_fence: str | None = None
    raw: dict[int, str] = {}
    for number in range(body_start, len(lines) + 1):
        line = lines[number - 1]
        fence = FENCE.match(line)
        if not in_fence and not fence and TIE_ATTEMPT.search(line):
            raw[number] = line
            line = strip_ties(line)
        if fence:
            marker = fence.group(1)
            if in_fence is None:
                in_fence = marker[0] * 3
            elif marker.startswith(in_fence):
                in_fence = None
        heading = None if in_fence or fence else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if heading and len(heading.group(1)) == 2:
            sections.append(Section(heading.group(2).strip(), number))
            continue
        if not sections:
            preamble.append((number, line))
            continue
        section = sections[-1]
        if heading and len(heading.group(1)) == 3:
            section.subsections.append(Subsection(heading.group(2).strip(), number))
            section.body.append((number, line))
            continue
        section.body.append((number, line))
        if section.subsections:
            section.subsections[-1].body.append((number, line))
        else:
            section.intro.append((number, line))
    rel_docs = path.relative_to(docs_dir)
    return Page(
        path=path, rel=(Path(docs_dir.name) / rel_docs).as_posix(),
        page_id=rel_docs.with_suffix("").as_posix(), meta=meta, meta_lines=key_lines,
        sections=sections, preamble=preamble, body_start=body_start, raw=raw,
    )


def words(text: str) -> int:
    """Words as a listener hears them: a link counts its text, Markdown marks count nothing."""
    text = LINK.sub(lambda m: m.group(0).split("](")[0][1:], text)
    text = re.sub(r"[*_`>#]", " ", text)
    return len(re.findall(r"\S+", text))


def bullet_items(body: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[int]]:
    """([(line, item text)], [lines that belong to no bullet]); continuation lines join their item."""
    items: list[tuple[int, str]] = []
    stray: list[int] = []
    for number, line in body:
        if BULLET.match(line):
            items.append((number, line.strip()))
        elif not line.strip():
            continue
        elif items and line.startswith((" ", "\t")):
            items[-1] = (items[-1][0], items[-1][1] + " " + line.strip())
        else:
            stray.append(number)
    return items, stray


def page_anchors(page: Page) -> set[str]:
    """Every anchor a link may target on the page: its sections, the generated ones, and the
    explainer's headings (follow-ups have none: they are collapsible blocks)."""
    anchors = set(ANCHORS.values()) | set(GENERATED_ANCHORS)
    explainer = page.section("Explainer")
    if explainer:
        anchors |= {slugify(sub.title, "-") for sub in explainer.subsections}
    return anchors
