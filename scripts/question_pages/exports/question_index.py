"""`questions.json`: every question of the site as data, for guide authors and tools.

A guide that links the bank, or a tool that checks it, should not scrape HTML: this file gives each
question's URL, the anchor of every section (each answer tier), its level, importance, frequency,
topic, tags and related questions, its answers as the page has them (short answer bullets, basics,
solid answer, the Go deeper notes, follow-ups with their answers and their own anchors, red flags;
each as plain text and as HTML, `answers.py`), each of its snippets with its code as the page shows
it and every declared device's record state, torch and output, and the terms of reuse
(`licences.py`: the content CC BY 4.0, the code MIT). It is written into the built site at each
build (by the hooks' `on_post_build`), from the same parsed pages and snippet statuses the build
rendered, so it can never disagree with the pages. Its shape is `docs/questions.schema.json` (JSON
Schema, draft 2020-12), published beside it; `VERSION` changes when a change would break a reader
of the file. docs/guide-authors.md describes it for its readers.

The site's URLs are computed as MkDocs computes them (`site_urls.Site`), from plain values the
hooks pass in, so that this module does not import MkDocs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from question_pages.drills.index_entries import drill_entries
from question_pages.drills.pages import DrillPage
from question_pages.exports.answers import answers, follow_ups
from question_pages.format.markers import snippet_refs
from question_pages.format.model import ANCHORS, GENERATED_ANCHORS, Page
from question_pages.format.topics import Topic
from question_pages.render.snippet_blocks import displayed_source
from question_pages.sitewide.catalog import learning_order
from question_pages.sitewide.downloads import INDEX_URI, SCHEMA_URI
from question_pages.sitewide.licences import licence_entry
from question_pages.sitewide.site_urls import Site
from snippet_engine.records.pins import pinned_torch
from snippet_engine.records.status import SnippetStatus, StatusBook

VERSION = 2  # of questions.json's shape; bump it (and the schema's const) on a breaking change
# 2: each question's answers (text and HTML), follow-ups with their answers, the licences.
# Added within 2 (additive, no bump): the drills; each snippet's code, first line and output per
# device; each follow-up's own anchor (its URL pointed at #follow-ups before).
GENERATOR = "scripts/question_pages/exports/question_index.py"
RELATED_ANCHOR = GENERATED_ANCHORS[0]  # the list render.related_block adds below the sections


def _snippet_status(book: StatusBook, ref: str) -> SnippetStatus:
    """The engine's one reading of a snippet: its declared devices, and on each its record and
    whether that record is current. Every generated file goes through here."""
    return book.status(ref)


def _snippet_entry(book: StatusBook, ref: str, section: str, page_url: str) -> dict:
    """A snippet as its page shows it: the code (`displayed_source`: the file without the engine's
    `#|` option lines, and the file's line number of its first line, which a traceback's line
    numbers count from) and, on each declared device, the record the page shows there, its whole
    output included (what the snippet printed, then an expected error as Python printed it)."""
    status = _snippet_status(book, ref)
    code, first_line = displayed_source(status.path.read_text(encoding="utf-8"), status.options)
    devices = {}
    for device in status.options.devices:
        on = status.on(device)
        record = on.record
        devices[device] = {
            "status": on.state,
            "detail": on.why,
            "torch": record.torch if record else None,
            "pinned_torch": status.on_pinned_torch(device),
            "outcome": record.status if record else None,
            "recorded": record.recorded if record else None,
            "output": record.output if record else None,
        }
    return {"path": status.rel, "section": section,
            "url": f"{page_url}#{ANCHORS[section]}", "code": code, "first_line": first_line,
            "devices": devices}


def question_entry(page: Page, site: Site, book: StatusBook) -> dict:
    """One question as questions.json gives it."""
    meta = page.meta
    path = site.page_path(page.page_id)
    url = site.absolute(path)
    refs: list[tuple[str, str]] = []
    for _, ref, section in snippet_refs(page):
        if ref not in {r for r, _ in refs}:
            refs.append((ref, section))
    sections = list(ANCHORS.items())
    if meta.get("related"):
        sections.append(("Related questions", RELATED_ANCHOR))
    return {
        "id": page.page_id,
        "question": page.question,
        "path": path,
        "url": url,
        "source": page.rel,
        "level": meta["level"],
        "importance": meta["importance"],
        "frequency": meta["frequency"],
        "topic": meta["topic"],
        "tags": [str(tag) for tag in meta.get("tags") or []],
        "sections": [{"title": title, "anchor": anchor, "url": f"{url}#{anchor}"}
                     for title, anchor in sections],
        "answers": answers(page, site),
        "follow_ups": follow_ups(page, site),
        "related": [{"id": item, "path": site.page_path(item),
                     "url": site.absolute(site.page_path(item))} for item in meta.get("related") or []],
        "snippets": [_snippet_entry(book, ref, section, url) for ref, section in refs],
    }


def build_index(pages: list[Page], topics: list[Topic], site: Site, root: Path,
                book: StatusBook | None = None,
                decks: Mapping[str, Mapping[str, str]] | None = None,
                drills: list[DrillPage] | None = None) -> dict:
    """The whole file: questions in learning order, topics in docs/topics.yml's order. `decks`
    maps a topic id (and "" for the whole site) to its deck files' site paths by format
    ({"apkg": "decks/export.apkg", "tsv": ...}), when the build writes decks."""
    book = book or StatusBook(root)
    decks = decks or {}

    def deck_links(key: str) -> dict:
        if key not in decks:
            return {}
        return {"decks": {kind: site.absolute(path) for kind, path in decks[key].items()}}

    return {
        "$schema": site.absolute(SCHEMA_URI),
        "version": VERSION,
        "site": {"name": site.name, "url": site.url, **deck_links("")},
        "license": licence_entry(site.name, site.url),
        "torch": pinned_torch(root),
        "generated_from": {"pages": "docs/<topic>/<slug>.md",
                           "records": "snippets/<topic>/<name>.<device>.txt",
                           "generator": GENERATOR},
        "topics": [{"id": topic.id, "title": topic.title, "path": site.path(topic.index_uri),
                    "url": site.absolute(site.path(topic.index_uri)), **deck_links(topic.id)}
                   for topic in topics],
        "questions": [question_entry(page, site, book) for page in learning_order(pages)],
        "drills": drill_entries(drills or [], site, root),
    }


ORDER_URI = "assets/learning-order.json"  # site-relative; read by the practice panel, not published


def learning_list(index: dict) -> dict:
    """What the practice panel needs to offer the next question after a rating: each question's
    id, site path and title, and what a study plan chooses by (topic, level, importance,
    frequency: "Next" follows the reader's plan), in learning order. questions.json holds the
    same list with every answer (hundreds of kB); this keeps a rating from downloading the whole
    bank's answers."""
    return {"questions": [{"id": q["id"], "path": q["path"], "question": q["question"],
                           "topic": q["topic"], "level": q["level"], "importance": q["importance"],
                           "frequency": q["frequency"]}
                          for q in index["questions"]]}


def write_learning_list(site_dir: Path, index: dict) -> Path:
    """Write the learning-order list beside the site's other assets (compact: it is fetched)."""
    path = site_dir / ORDER_URI
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(learning_list(index), ensure_ascii=False, separators=(",", ":")) + "\n",
                    encoding="utf-8")
    return path


def write_index(site_dir: Path, index: dict) -> Path:
    """Write questions.json at the site's root (UTF-8, keys in a fixed order, so two builds of
    the same sources give the same bytes)."""
    path = site_dir / INDEX_URI
    path.write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
