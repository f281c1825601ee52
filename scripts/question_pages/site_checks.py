"""Every check the build runs, in one function, so that `scripts/check_pages.py` and `mkdocs build`
report the same problems, all of them at once, each with its file and line.

Beyond each page's format (validate.py): every page's topic is declared in docs/topics.yml, every
declared topic has its index page with its learning path, no published URL disappears without a
redirect and every page is in the ledger, every tag is declared in docs/tags.yml and groups
pages, every committed drift report can be read, and every topic's and question's notebook is
a valid notebook.
What one problem causes is not reported again as another: a page that does not parse still
counts as a page of its topic (and leaves the tag counts unchecked), and a topic's notebook counts
as published even when a page error stops the build before it is written.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from question_pages.drills.pages import DrillPage, load_drill_pages
from question_pages.drills.proof import drill_errors
from question_pages.exports.notebooks import (
    build_notebook,
    moved_notebooks,
    notebooks_of_missing_pages,
    question_notebook_errors,
)
from question_pages.format.loading import DRILL_PAGES, load_pages, question_page_paths
from question_pages.format.markers import learning_path_topics
from question_pages.format.model import Page, PageError
from question_pages.format.published import missing_redirects
from question_pages.format.tag_rules import tag_errors
from question_pages.format.topics import Topic, TopicsError, load_topics, topics_path
from question_pages.render.drift_reports import DriftReportError, load_reports
from question_pages.sitewide.downloads import INDEX_URI, deck_uris, question_notebook_uris
from snippet_engine.records.status import StatusBook


@dataclass
class SiteCheck:
    topics: list[Topic]
    pages: list[Page]
    errors: list[PageError]
    snippets: StatusBook  # what the checks read of every snippet; the rendering reads the same
    drills: list[DrillPage] = field(default_factory=list)  # the coding drills' pages, checked


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def docs_sources(docs_dir: Path) -> set[str]:
    """Every file under docs/ as MkDocs names it (docs-relative, forward slashes)."""
    return {p.relative_to(docs_dir).as_posix() for p in docs_dir.rglob("*") if p.is_file()}


def _topic_errors(root: Path, docs_dir: Path, topics: list[Topic]) -> list[PageError]:
    errors = []
    declared = {topic.id for topic in topics}
    reported: set[str] = set()
    for path in question_page_paths(docs_dir):
        folder = path.relative_to(docs_dir).parts[0]
        if folder in declared or folder in reported:
            continue
        reported.add(folder)
        errors.append(PageError(
            _rel(path, root), 1, f"the topic '{folder}' is not declared in docs/{topics_path(docs_dir).name}",
            f"Start it with: python scripts/new_topic.py {folder} --title \"<what readers see>\" "
            "(it writes the topic's index page, its published URLs and its place in the list)"))
    for topic in topics:
        index = docs_dir / topic.index_uri
        if not index.is_file():
            errors.append(PageError(
                _rel(topics_path(docs_dir), root), topic.line,
                f"topic '{topic.id}' has no index page ({_rel(index, root)})",
                f"Create it with a line {{{{ learning_path(\"{topic.id}\") }}}}, or start the "
                "topic with scripts/new_topic.py"))
            continue
        text = index.read_text(encoding="utf-8")
        if topic.id not in learning_path_topics(text):
            errors.append(PageError(
                _rel(index, root), 1, f"the index page of topic '{topic.id}' has no learning path",
                f"Add a line {{{{ learning_path(\"{topic.id}\") }}}}"))
        for number, line in enumerate(text.split("\n"), start=1):
            if "TODO" in line:
                errors.append(PageError(_rel(index, root), number, "unfinished placeholder (TODO)",
                                        "Replace it with the real text"))
    return errors


def _notebook_errors(root: Path, topics: list[Topic], pages: list[Page]) -> list[PageError]:
    errors = []
    for topic in topics:
        try:
            nbformat.validate(build_notebook(topic.id, pages, root))
        except nbformat.ValidationError as exc:
            errors.append(PageError(topic.notebook_uri, 1, f"the notebook of topic '{topic.id}' is "
                                    f"not a valid notebook ({exc.message})",
                                    "A snippet or record of the topic is malformed; run "
                                    "scripts/snippets.py check"))
    return errors


def check_site(root: Path, docs_dir: Path | None = None, *, sources: set[str] | None = None,
               redirects: dict[str, str] | None = None,
               previewed: Collection[str] = ()) -> SiteCheck:
    """Check the whole site. `sources` (docs-relative) and `redirects` are what the site generator
    will publish and redirect; by default, every file under docs/ and no redirect. `previewed`:
    snippets whose failure a live preview shows on their page instead of a record."""
    docs_dir = docs_dir or root / "docs"
    errors: list[PageError] = []
    try:
        topics = load_topics(docs_dir)
    except TopicsError as exc:
        errors.append(PageError(_rel(topics_path(docs_dir), root), exc.line, exc.what, exc.fix))
        # Only that error: the folders that hold pages or an index page stand in for the list it
        # could not give, so that their notebooks do not look unpublished. The drills' folder has
        # an index page too, but it is no topic (it has no notebook or deck).
        folders = sorted({p.relative_to(docs_dir).parts[0] for p in question_page_paths(docs_dir)}
                         | {d.name for d in docs_dir.iterdir()
                            if (d / "index.md").is_file() and d.name != DRILL_PAGES})
        topics = [Topic(folder, folder, 1) for folder in folders]
    else:
        errors += _topic_errors(root, docs_dir, topics)
    book = StatusBook(root)
    pages, page_errors = load_pages(root, docs_dir, previewed, book)
    errors += page_errors
    errors += tag_errors(root, docs_dir, pages,
                         complete=len(pages) == len(question_page_paths(docs_dir)))
    published = set(docs_sources(docs_dir) if sources is None else sources)
    # A topic's index page and notebook are the topic's own problems when missing (reported
    # above), not a published URL gone.
    published |= {uri for topic in topics for uri in (topic.notebook_uri, topic.index_uri)}
    # Each question page's notebook, by the page's file, so a page that does not parse does not
    # make its notebook look deleted.
    published |= question_notebook_uris([p.relative_to(docs_dir).with_suffix("").as_posix()
                                         for p in question_page_paths(docs_dir)])
    # Written into the built site after the pages (hooks' on_post_build): published all the same.
    published |= {INDEX_URI, *deck_uris(topic.id for topic in topics)}
    published |= notebooks_of_missing_pages(root, published, redirects or {})
    # A moved page's redirect also covers its notebook (the build copies the notebook there).
    errors += missing_redirects(root, published,
                                {**moved_notebooks(redirects or {}), **(redirects or {})})
    errors += drill_errors(root)
    drills, drill_page_errors = load_drill_pages(root, docs_dir)
    errors += drill_page_errors
    try:
        load_reports(root)
    except DriftReportError as exc:
        errors.append(PageError(_rel(exc.path, root), 1, exc.what, exc.fix))
    if not errors:
        errors += _notebook_errors(root, topics, pages)
        errors += question_notebook_errors(root, pages, book)
    return SiteCheck(topics, pages, sorted(set(errors)), book, drills)
