"""The files a build writes into the built site beside the pages, from the pages and snippet
statuses it checked and rendered: questions.json and the learning-order list, the Anki decks, the
files the pages' markers need beside them, the npm packages the site ships, the notebook downloads,
and the search index. Each writer turns a problem into MkDocs' PluginError, so the build stops
with the message."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

from mkdocs.exceptions import PluginError

from question_pages.drills.pages import DrillPage
from question_pages.exports.decks import DeckError, write_decks
from question_pages.exports.notebooks import write_notebooks
from question_pages.exports.question_index import build_index, write_index, write_learning_list
from question_pages.format.model import Page
from question_pages.format.topics import Topic
from question_pages.sitewide.downloads import deck_files
from question_pages.sitewide.site_urls import Site
from site_search import SearchIndexError, index_site
from site_vendor import VendorError, copy_shipped
from snippet_engine.records.status import StatusBook


def write_decks_and_files(root: Path, site_dir: Path, pages: list[Page], topics: list[Topic],
                          site: Site, beside: Mapping[str, str],
                          drills: list[DrillPage] | None = None) -> None:
    """The decks (the site's with the drills), the shipped npm packages, and the files beside
    the pages (site path -> text)."""
    try:
        write_decks(site_dir, pages, topics, site, drills)
        copy_shipped(root, site_dir)
    except (DeckError, VendorError) as exc:
        raise PluginError(str(exc)) from None
    for path, text in beside.items():
        (site_dir / path).write_text(text, encoding="utf-8")


def write_question_files(root: Path, site_dir: Path, pages: list[Page], topics: list[Topic],
                         site: Site, book: StatusBook | None,
                         drills: list[DrillPage] | None = None) -> None:
    """questions.json (with the coding drills) and the practice panel's learning-order list."""
    index = build_index(pages, topics, site, root, book, deck_files(t.id for t in topics), drills)
    write_index(site_dir, index)
    write_learning_list(site_dir, index)


def write_search_index(site_dir: Path) -> None:
    """Pagefind's index of the built HTML."""
    try:
        index_site(site_dir)
    except SearchIndexError as exc:
        raise PluginError(str(exc)) from None


def copy_notebook_downloads(root: Path, generated: Path, site_dir: Path, pages: list[Page],
                            topic_ids: list[str], book: StatusBook | None,
                            page_urls: Mapping[str, str], moved: Mapping[str, str]) -> None:
    """Write the notebooks again and copy the question downloads that changed into the site; a
    topic's notebook is a page, and waits for a full rebuild."""
    for path in write_notebooks(pages, root, generated, topic_ids, book, dict(page_urls), dict(moved)):
        uri = path.relative_to(generated).as_posix()
        dest = site_dir / uri
        if uri.count("/") > 1 and (not dest.exists() or dest.read_bytes() != path.read_bytes()):
            shutil.copyfile(path, dest)
