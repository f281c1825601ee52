"""A drill's page: docs/drills/<id>.md, the words around the drill's files.

The files in snippets/drills/<id>/ are the drill (starter, judge, reference, mistakes) and the
engine's records prove the judge (proof.py). The page holds what only a person can write: the
title, the task as an interviewer states it, the hints in the order to give them, the spoken
explanation of the solution, follow-ups with their answers and the red flags. The rendering
(render.py) puts the two together, so nothing shown as code or as the judge's verdict is typed
into the page.

    ---
    drill: attention-from-scratch       # the folder under snippets/drills/
    title: "Write attention from scratch, with a causal and a padding mask"
    level: middle                       # junior, middle, senior or principal
    minutes: 30                         # the time a candidate gets for it in a loop
    hints:                              # revealed one at a time, the first gentlest
      - "..."
    ---

    ## Task            what to implement and what must hold, as said in the interview
    ## Explained       the solution, said aloud in about a minute (60 to 170 words)
    ## Follow-ups      ### question, then its answer; at least one
    ## Red flags       optional: bullets of what costs a candidate the round
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from question_pages.format.loading import DRILL_PAGES
from question_pages.format.markers import SNIPPET_LINE
from question_pages.format.model import LEVELS, Page, PageError
from question_pages.format.parse import FrontMatterError, parse_page, words

from .bank import DRILLS_DIR as SNIPPETS_DRILLS
from .bank import Drill, DrillError, load_drill

KEYS = ("drill", "title", "level", "minutes", "hints")
SECTIONS = ("Task", "Explained", "Follow-ups", "Red flags")
REQUIRED = ("Task", "Explained", "Follow-ups")
EXPLAINED_WORDS = (60, 170)  # about 25 to 70 seconds at the pages' speaking rate
MINUTES = (10, 60)


@dataclass(frozen=True)
class DrillPage:
    page: Page  # the parsed Markdown, with its line numbers
    drill: Drill  # the files it is the page of

    @property
    def id(self) -> str:
        return self.drill.id

    @property
    def page_id(self) -> str:
        return self.page.page_id  # drills/<id>

    @property
    def title(self) -> str:
        return str(self.page.meta["title"])

    @property
    def level(self) -> str:
        return str(self.page.meta["level"])

    @property
    def minutes(self) -> int:
        return int(self.page.meta["minutes"])

    @property
    def hints(self) -> list[str]:
        return [str(h) for h in self.page.meta["hints"]]


def is_drill_page(path: Path, docs_dir: Path) -> bool:
    rel = path.relative_to(docs_dir)
    return len(rel.parts) == 2 and rel.parts[0] == DRILL_PAGES and path.suffix == ".md" \
        and path.name != "index.md"


def drill_page_paths(docs_dir: Path) -> list[Path]:
    folder = docs_dir / DRILL_PAGES
    return sorted(p for p in folder.glob("*.md") if p.name != "index.md") if folder.is_dir() else []


def _front_matter_errors(page: Page) -> list[PageError]:
    meta, line = page.meta, page.meta_lines
    errors = []

    def error(key: str, what: str, fix: str) -> None:
        errors.append(PageError(page.rel, line.get(key, 2), what, fix))

    for key in KEYS:
        if key not in meta:
            error(key, f"the front matter has no '{key}'", f"Add '{key}:' (fields: {', '.join(KEYS)})")
    for key in meta:
        if key not in KEYS:
            error(key, f"unknown field '{key}'", f"A drill page's fields are {', '.join(KEYS)}")
    if "title" in meta and (not isinstance(meta["title"], str) or not meta["title"].strip()):
        error("title", "the title is empty", "Write the task as a title, in quotes")
    if "level" in meta and meta["level"] not in LEVELS:
        error("level", f"level '{meta['level']}' is not one of {', '.join(LEVELS)}",
              "Use the level the round is asked at")
    low, high = MINUTES
    if "minutes" in meta and (not isinstance(meta["minutes"], int) or isinstance(meta["minutes"], bool)
                              or not low <= meta["minutes"] <= high):
        error("minutes", f"minutes must be a whole number from {low} to {high}, not "
              f"{meta['minutes']!r}", "Give the time a candidate gets for it in a loop")
    hints = meta.get("hints")
    if "hints" in meta and (not isinstance(hints, list) or not hints
                            or not all(isinstance(h, str) and h.strip() for h in hints)):
        error("hints", "hints must be a list of at least one non-empty string",
              "Write each hint as a quoted '- \"...\"' line, the gentlest first")
    return errors


def _section_errors(page: Page) -> list[PageError]:
    errors = []
    titles = [s.title for s in page.sections]
    for section in page.sections:
        if section.title not in SECTIONS:
            errors.append(PageError(page.rel, section.line, f"unknown section '## {section.title}'",
                                    f"A drill page's sections are {', '.join(SECTIONS)}"))
    for title in REQUIRED:
        if title not in titles:
            errors.append(PageError(page.rel, page.body_start, f"no '## {title}' section",
                                    f"Add it; a drill page has {', '.join(REQUIRED)} (and may have "
                                    "Red flags), in that order"))
    known = [t for t in titles if t in SECTIONS]
    if known != sorted(known, key=SECTIONS.index):
        errors.append(PageError(page.rel, page.body_start, f"the sections are in the order "
                                f"{', '.join(known)}", f"Put them in the order {', '.join(SECTIONS)}"))
    for section in page.sections:
        if section.title in REQUIRED and not section.text:
            errors.append(PageError(page.rel, section.line, f"'## {section.title}' is empty",
                                    "Write it"))
    explained = page.section("Explained")
    low, high = EXPLAINED_WORDS
    if explained is not None and explained.text and not low <= words(explained.text) <= high:
        errors.append(PageError(page.rel, explained.line,
                                f"'## Explained' has {words(explained.text)} words, not {low} to "
                                f"{high}", "It is the solution said aloud in about a minute"))
    follow_ups = page.section("Follow-ups")
    if follow_ups is not None:
        if follow_ups.text and not follow_ups.subsections:
            errors.append(PageError(page.rel, follow_ups.line, "'## Follow-ups' has no '### ' question",
                                    "Give each follow-up as a '### question' heading, then its answer"))
        for sub in follow_ups.subsections:
            if len(sub.body) < 2 or not "\n".join(line for _, line in sub.body[1:]).strip():
                errors.append(PageError(page.rel, sub.line, f"the follow-up '{sub.title}' has no answer",
                                        "Write its answer under the heading"))
    return errors


def _snippet_errors(page: Page, root: Path) -> list[PageError]:
    """A snippet a drill page shows must be one of the drill's own folder, and exist (its record
    is the engine's to check: `snippets.py check`)."""
    errors = []
    own = f"{SNIPPETS_DRILLS.relative_to('snippets').as_posix()}/{page.path.stem}/"
    for section in page.sections:
        for number, line in section.body:
            match = SNIPPET_LINE.match(line)
            if match is None:
                continue
            ref = match.group(1)
            name = ref.removeprefix(own)
            if not ref.startswith(own) or "/" in name or name.startswith("_"):
                errors.append(PageError(page.rel, number, f"'{ref}' is not a snippet of this drill",
                                        f"Put the snippet in snippets/{own} and name it there"))
            elif not (root / "snippets" / ref).is_file():
                errors.append(PageError(page.rel, number, f"no snippet snippets/{ref}",
                                        "Write it, then record it: python scripts/snippets.py run "
                                        f"snippets/{ref}"))
    return errors


def load_drill_pages(root: Path, docs_dir: Path | None = None) -> tuple[list[DrillPage], list[PageError]]:
    """Every drill page, checked, and every problem: a page of no drill, a drill with no page,
    front matter or sections out of the format."""
    docs_dir = docs_dir or root / "docs"
    pages: list[DrillPage] = []
    errors: list[PageError] = []
    seen = set()
    for path in drill_page_paths(docs_dir):
        try:
            page = parse_page(path, docs_dir)
        except FrontMatterError as exc:
            errors.append(PageError(path.relative_to(root).as_posix(), exc.line, exc.what, exc.fix))
            seen.add(path.stem)
            continue
        own = _front_matter_errors(page) + _section_errors(page) + _snippet_errors(page, root)
        drill_id = page.meta.get("drill")
        seen.add(path.stem)
        if drill_id is not None and drill_id != path.stem:
            own.append(PageError(page.rel, page.meta_lines.get("drill", 2),
                                 f"the page is named {path.stem}.md but is of drill '{drill_id}'",
                                 "Name the page after its drill's folder"))
        folder = root / SNIPPETS_DRILLS / path.stem
        drill = None
        if not folder.is_dir():
            own.append(PageError(page.rel, page.meta_lines.get("drill", 2),
                                 f"there is no drill '{path.stem}' ({folder.relative_to(root)} is missing)",
                                 "Add the drill's files (CONTRIBUTING.md, 'Add a coding drill') or "
                                 "remove the page"))
        else:
            try:
                drill = load_drill(folder, root)
            except DrillError:
                pass  # proof.drill_errors reports the drill's own files
        errors += own
        if drill is not None and not own:
            pages.append(DrillPage(page, drill))
    folder = root / SNIPPETS_DRILLS
    for drill_dir in sorted(folder.iterdir()) if folder.is_dir() else []:
        if drill_dir.is_dir() and not drill_dir.name.startswith((".", "_")) and drill_dir.name not in seen:
            errors.append(PageError(f"docs/{DRILL_PAGES}/{drill_dir.name}.md", 1,
                                    f"the drill '{drill_dir.name}' has no page",
                                    "Write it (this module's docstring gives the format: "
                                    "scripts/question_pages/drills/pages.py)"))
    return pages, sorted(errors)
