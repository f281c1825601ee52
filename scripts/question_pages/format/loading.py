"""Which files under docs/ are question pages, and reading them all into checked `Page`s.

Kept apart from the rules (`validate`) so that the rendering, the notebooks and the tests can find
and read pages without importing the validator, and the validator knows nothing of the folder
layout.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from question_pages.format.model import Page, PageError
from question_pages.format.parse import FrontMatterError, parse_page
from question_pages.format.validate import validate_page
from snippet_engine.records.status import StatusBook

DRILL_PAGES = "drills"  # docs/drills/: question_pages.drills.pages reads it


def is_question_page(path: Path, docs_dir: Path) -> bool:
    """docs/<topic>/<slug>.md, except a topic's index.md, the theme's own folders and the coding
    drills' pages (docs/drills/, a page kind of their own: question_pages.drills.pages)."""
    rel = path.relative_to(docs_dir)
    return (len(rel.parts) == 2 and path.suffix == ".md" and path.name != "index.md"
            and not rel.parts[0].startswith(("_", ".", "assets", "overrides"))
            and rel.parts[0] != DRILL_PAGES)


def question_page_paths(docs_dir: Path) -> list[Path]:
    return sorted(p for p in docs_dir.rglob("*.md") if is_question_page(p, docs_dir))


def load_pages(root: Path, docs_dir: Path | None = None, previewed: Collection[str] = (),
               book: StatusBook | None = None) -> tuple[list[Page], list[PageError]]:
    """Parse and check every question page under docs/; pages that cannot be parsed are left out.
    `previewed`: snippets (snippets/...) whose failed run a live preview shows on the page, so a
    record they lack is not an error there. `book`: the snippet statuses of this build, so that
    the rendering reads the records the checks read."""
    docs_dir = docs_dir or root / "docs"
    book = book or StatusBook(root)
    paths = question_page_paths(docs_dir)
    page_ids = {p.relative_to(docs_dir).with_suffix("").as_posix() for p in paths}
    pages: list[Page] = []
    errors: list[PageError] = []
    for path in paths:
        try:
            page = parse_page(path, docs_dir)
        except FrontMatterError as exc:
            errors.append(PageError(path.relative_to(root).as_posix(), exc.line, exc.what, exc.fix))
            continue
        pages.append(page)
        errors.extend(validate_page(page, root, page_ids, book, previewed))
    return pages, sorted(errors)
