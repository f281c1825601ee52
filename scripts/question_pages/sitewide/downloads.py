"""Where the files a reader downloads live on the site: the Anki decks and their TSV twins, each
question's notebook, and the question index. One place, read by the deck writer, the ledger checks,
the scaffold and the page marker that links them, so that a new topic's files are linked and listed
without anyone typing their names.
"""

from __future__ import annotations

from collections.abc import Iterable

DECKS_DIR = "decks"
SITE_DECK = "all_questions"  # not a valid topic id (topics.TOPIC_ID), so never a topic's file
INDEX_URI = "questions.json"  # site-relative, as docs/published-urls.txt lists it
SCHEMA_URI = "questions.schema.json"  # a docs/ source, copied to the site root by MkDocs


def deck_files(topic_ids: Iterable[str]) -> dict[str, dict[str, str]]:
    """Site paths of every deck file by topic id ("" for the whole site) and by format."""
    names = {topic: topic for topic in topic_ids} | {"": SITE_DECK}
    return {key: {kind: f"{DECKS_DIR}/{name}.{kind}" for kind in ("apkg", "tsv")}
            for key, name in names.items()}


def deck_uris(topic_ids: Iterable[str]) -> list[str]:
    """Every deck file the site publishes, as docs/published-urls.txt lists them."""
    return [path for files in deck_files(topic_ids).values() for path in files.values()]


def question_notebook_uri(page_id: str) -> str:
    """Where a question's notebook is published, docs-relative: `notebooks/export/x.ipynb`."""
    return f"notebooks/{page_id}.ipynb"


def question_notebook_uris(page_ids: list[str]) -> set[str]:
    """Where the notebooks of these questions are published."""
    return {question_notebook_uri(page_id) for page_id in page_ids}
