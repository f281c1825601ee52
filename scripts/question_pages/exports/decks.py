"""Anki decks, and the same cards as TSV, built from the question pages at each site build.

Cards: one per question (front: the question; back: the short answer, the basics and links to the
page and to those tiers) and one per follow-up (front: the follow-up and the question it follows;
back: its whole answer and a link to the page's follow-ups). They are made from the parsed pages,
never written by hand, so they change when a page does.

Files, under `decks/` on the site (`deck_files`): `<topic>.apkg` and `<topic>.tsv` for each topic,
`all_questions.apkg` and `all_questions.tsv` for the whole site. The site package holds the topic
decks themselves (same deck ids, same notes), as subdecks of one deck named after the site, so
importing a topic's deck and then the site's never duplicates a card. `all_questions` has an
underscore, which no topic id can have, so no topic's deck can take its name.

Identity, so that importing a newer deck updates the reader's cards instead of adding copies:

- A note's GUID, what Anki matches on import, is `genanki.guid_for(page_id)` for a question and
  `genanki.guid_for(page_id, follow-up title)` for a follow-up: stable while the page keeps its
  URL and the follow-up its title.
- The note type's id is `stable_id(MODEL_KEY)` and each deck's `stable_id("deck:" + topic id)`:
  fixed integers from a SHA-256 of a fixed name (`stable_id`), never random, so every build gives
  the same ones. Change MODEL_KEY only with the note type's fields.
- Note and card ids are derived from the GUID too (`_row_ids`), not from the time of the build,
  so they do not move when another question is added.
- Every note's modification time is `content_time`: when the pages last changed, as
  `source_time` reads it (SOURCE_DATE_EPOCH when set, else the time of the last commit that
  touched a page, else the newest page file's time), so every clone of one commit gives the same.
  Anki updates a note on import only when the incoming one is newer, so it has to grow when the
  pages change, and it stays put when they do not. genanki accepts a fixed
  timestamp (`write_to_db(cursor, timestamp, id_gen)`); the zip is written here with that time
  too, so two builds of the same sources give byte-identical `.apkg` files.

Order: new cards come in learning order (topics as docs/topics.yml orders them, each topic's
questions in `learning_order`, a question's card just before its follow-ups'), each with its place
in that order as its new-card position (`due`), so Anki never shows a follow-up before its question.

Coding drills: the site's package and TSV end with a subdeck of the drills, a card each (front: the
task; back: the reference solution, its explanation said aloud, and links to the page and its
mistakes), GUID `genanki.guid_for("drills/<id>")`. They are in no topic's package: a drill is not
a topic's question.
TSV, for other flashcard apps: UTF-8, a header row `front, back, tags, url`, one card a row.
`front` and `back` are the same HTML as the Anki fields; a tab in a field is written `&#9;` and a
line break `&#10;` (HTML character references, which render as the characters they replace), so
a row is always one line of exactly four fields. `tags` is space-separated, as Anki's are.
"""

from __future__ import annotations

import hashlib
import html
import os
import sqlite3
import tempfile
import time
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import genanki

from question_pages.drills.pages import DrillPage
from question_pages.format.model import ANCHORS, Page
from question_pages.format.topics import Topic
from question_pages.render.markdown_html import inline_html, snippets_as_pointers, to_html
from question_pages.sitewide import source_time
from question_pages.sitewide.catalog import learning_order
from question_pages.sitewide.downloads import deck_files
from question_pages.sitewide.licences import CONTENT
from question_pages.sitewide.site_urls import Site
from question_pages.sitewide.source_time import SourceTimeError
from snippet_engine.errors import ProjectError

MODEL_KEY = "pytorch-interview-questions:card:v1"
FIELDS = ("Front", "Back", "URL")
CSS = """.card { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.45;
  max-width: 42em; margin: 0 auto; text-align: left; color: #1b1b1f; background: #fff; }
.nightMode.card, .night_mode .card { color: #e6e6ea; background: #1e1e24; }
.from { display: block; margin-top: .6em; font-size: 75%; opacity: .75; }
.tier { margin: .9em 0 .2em; font-size: 75%; font-weight: 600; text-transform: uppercase;
  letter-spacing: .04em; opacity: .75; }
.links { margin-top: 1.2em; font-size: 80%; }
code { font-size: 90%; }
"""
# Anki ids are milliseconds since the epoch; derived ids fall in 2026, after this moment.
ID_EPOCH_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
ID_SPAN = 1 << 34  # about 200 days of milliseconds: collisions between ids stay negligible


class DeckError(ProjectError, ValueError):
    """The decks cannot be written as asked; the message says why and how to fix it."""


@dataclass(frozen=True)
class Card:
    guid: str
    front: str  # HTML
    back: str  # HTML
    url: str
    tags: tuple[str, ...]


def stable_id(name: str) -> int:
    """A fixed id for a named note type or deck, in the range genanki recommends (2**30 to
    2**31): the first 8 bytes of the name's SHA-256, reduced into that range."""
    digest = int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big")
    return (1 << 30) + digest % (1 << 30)


def model() -> genanki.Model:
    return genanki.Model(
        stable_id(MODEL_KEY), "PyTorch Interview Questions card",
        fields=[{"name": name} for name in FIELDS],
        templates=[{"name": "Card", "qfmt": "{{Front}}",
                    "afmt": '{{FrontSide}}<hr id="answer">{{Back}}'}],
        css=CSS)


def _links(url: str, anchors: Iterable[tuple[str, str]]) -> str:
    items = [f'<a href="{html.escape(url)}#{anchor}">{html.escape(label)}</a>'
             for label, anchor in anchors]
    items.append(f'<a href="{html.escape(url)}">The whole page</a>')
    return '<p class="links">' + " · ".join(items) + "</p>"


def _tags(page: Page, *extra: str) -> tuple[str, ...]:
    """Anki tags (no spaces): the topic, level and importance as hierarchical tags, the page's
    own tags as words joined by '_'."""
    meta = page.meta
    own = ["_".join(str(tag).split()) for tag in meta.get("tags") or []]
    return (f"topic::{meta['topic']}", f"level::{meta['level']}",
            "importance::" + "_".join(str(meta["importance"]).split()), *own, *extra)


def page_cards(page: Page, site: Site) -> list[Card]:
    """The question's card, then one card per follow-up, in page order."""
    url = site.absolute(site.page_path(page.page_id))
    question = inline_html(page.question, page, site)
    short, basics = page.section("Short answer"), page.section("Basics")
    back = "".join([
        '<p class="tier">Short answer</p>', to_html(short.text if short else "", page, site),
        '<p class="tier">Basics</p>', to_html(basics.text if basics else "", page, site),
        _links(url, [("Short answer", ANCHORS["Short answer"]), ("Basics", ANCHORS["Basics"]),
                     ("Solid answer", ANCHORS["Solid answer"])]),
    ])
    cards = [Card(genanki.guid_for(page.page_id), question, back, url, _tags(page))]
    follow_ups = page.section("Follow-ups")
    for sub in follow_ups.subsections if follow_ups else []:
        front = (f"{inline_html(sub.title, page, site)}"
                 f'<span class="from">(from: {question})</span>')
        answer = to_html(snippets_as_pointers(sub.body, ANCHORS["Follow-ups"]), page, site)
        back = answer + _links(url, [("Follow-ups", ANCHORS["Follow-ups"])])
        cards.append(Card(genanki.guid_for(page.page_id, sub.title), front, back,
                          f"{url}#{ANCHORS['Follow-ups']}", _tags(page, "follow-up")))
    return cards


DRILLS_DECK = ("drills", "Coding drills")  # deck key (stable_id "deck:drills") and title


def drill_card(drill: DrillPage, site: Site) -> Card:
    """A drill's card: the task on the front, the reference and its explanation on the back."""
    page = drill.page
    url = site.absolute(site.page_path(drill.page_id))
    task, explained = page.section("Task"), page.section("Explained")
    front = (f"<p>{html.escape(drill.title)}</p>"
             + to_html(task.text if task else "", page, site))
    code = html.escape(drill.drill.reference.read_text(encoding="utf-8")).replace("\n", "&#10;")
    back = "".join([
        '<p class="tier">Reference solution</p>', f"<pre><code>{code}</code></pre>",
        '<p class="tier">Said aloud</p>', to_html(explained.text if explained else "", page, site),
        _links(url, [("Judge it on your machine", "judge"), ("Mistakes", "mistakes")]),
    ])
    return Card(genanki.guid_for(drill.page_id), front, back, url,
                ("drill", f"level::{drill.level}"))


# -- Writing ------------------------------------------------------------------------------------

def content_time(pages: Iterable[Page], drills: Iterable[DrillPage] = ()) -> int:
    """The notes' modification time (seconds since the epoch): when the pages (and the drills'
    pages and reference solutions, which their cards show) last changed, read by
    `source_time.content_time` (SOURCE_DATE_EPOCH, else the last commit touching them)."""
    paths = [page.path for page in pages]
    paths += [path for d in drills for path in (d.page.path, d.drill.reference)]
    try:
        return source_time.content_time(paths)
    except SourceTimeError as exc:
        raise DeckError(str(exc)) from None


def _derived_id(key: str, taken: set[int]) -> int:
    salt = 0
    while True:
        digest = hashlib.sha256(f"{key}#{salt}".encode()).digest()
        value = ID_EPOCH_MS + int.from_bytes(digest[:8], "big") % ID_SPAN
        if value not in taken:
            taken.add(value)
            return value
        salt += 1


def _row_ids(cursor: sqlite3.Cursor) -> None:
    """Give every note and card an id derived from its note's GUID (and the card's template),
    in place of genanki's counter, which starts at the build's time."""
    taken: set[int] = set()
    notes = cursor.execute("SELECT id, guid FROM notes ORDER BY guid").fetchall()
    for old, guid in notes:
        new = _derived_id(f"note:{guid}", taken)
        cursor.execute("UPDATE notes SET id = ? WHERE id = ?", (new, old))
        cursor.execute("UPDATE cards SET nid = ? WHERE nid = ?", (new, old))
    cards = cursor.execute(
        "SELECT cards.id, notes.guid, cards.ord FROM cards JOIN notes ON notes.id = cards.nid "
        "ORDER BY notes.guid, cards.ord").fetchall()
    for old, guid, ordinal in cards:
        cursor.execute("UPDATE cards SET id = ? WHERE id = ?",
                       (_derived_id(f"card:{guid}:{ordinal}", taken), old))


def write_apkg(path: Path, decks: list[genanki.Deck], timestamp: int) -> None:
    """An Anki package: a zip holding `collection.anki2` (SQLite) and an empty `media` map."""
    handle, db_name = tempfile.mkstemp(suffix=".anki2")
    os.close(handle)
    try:
        connection = sqlite3.connect(db_name)
        try:
            cursor = connection.cursor()
            # Temporary ids from 1, far below the derived ones, so renumbering never collides.
            genanki.Package(decks).write_to_db(cursor, timestamp, iter(range(1, 1 << 31)))
            _row_ids(cursor)
            connection.commit()
        finally:
            connection.close()
        date = time.gmtime(max(timestamp, 315_532_800))[:6]  # a zip's dates start in 1980
        path.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in (("collection.anki2", Path(db_name).read_bytes()), ("media", b"{}")):
                info = zipfile.ZipInfo(name, date)
                info.external_attr = 0o644 << 16  # rw-r--r--, as a file written by hand
                archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    finally:
        os.unlink(db_name)


def _tsv_field(value: str) -> str:
    return value.replace("\t", "&#9;").replace("\r", "&#13;").replace("\n", "&#10;")


def write_tsv(path: Path, cards: list[Card]) -> None:
    rows = ["front\tback\ttags\turl"]
    rows += ["\t".join(_tsv_field(v) for v in (c.front, c.back, " ".join(c.tags), c.url))
             for c in cards]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def _deck(topic: Topic, cards: list[Card], site: Site, note_type: genanki.Model,
          first: int, what: str = "questions and follow-ups") -> genanki.Deck:
    """The topic's deck; its cards' new-card positions run from `first`, in the order given."""
    deck = genanki.Deck(stable_id(f"deck:{topic.id}"), f"{site.name}::{topic.title}",
                        description=f'{html.escape(topic.title)}: {what} from '
                                    f'<a href="{html.escape(site.url)}">{html.escape(site.name)}</a>'
                                    f', under <a href="{CONTENT.url}">{CONTENT.short}</a>.')
    for position, card in enumerate(cards, start=first):
        deck.add_note(genanki.Note(model=note_type, fields=[card.front, card.back, card.url],
                                   tags=list(card.tags), guid=card.guid, due=position))
    return deck


def write_decks(site_dir: Path, pages: list[Page], topics: list[Topic], site: Site,
                drills: list[DrillPage] | None = None) -> list[Path]:
    """Every deck file of `deck_files`, under site_dir; returns their paths.

    Cards come in learning order: the topics in docs/topics.yml's order, each topic's questions
    in `learning_order`, each question's card just before its follow-ups' in page order. A new
    card's `due` is its position in that order (from 1, the same in a topic's package and the
    site's): Anki shows new cards by that position, and its importer keeps a new card's `due` as
    the package has it (rslib's apkg importer shifts only review dates)."""
    note_type = model()
    timestamp = content_time(pages, drills or [])
    files = deck_files(t.id for t in topics)
    written: list[Path] = []
    decks: list[genanki.Deck] = []
    everything: list[Card] = []
    for topic in topics:
        cards = [card for page in learning_order([p for p in pages if p.meta["topic"] == topic.id])
                 for card in page_cards(page, site)]
        deck = _deck(topic, cards, site, note_type, first=len(everything) + 1)
        decks.append(deck)
        everything += cards
        apkg, tsv = (site_dir / files[topic.id][kind] for kind in ("apkg", "tsv"))
        write_apkg(apkg, [deck], timestamp)
        write_tsv(tsv, cards)
        written += [apkg, tsv]
    drill_cards = [drill_card(d, site) for d in sorted(drills or [], key=lambda d: d.id)]
    if drill_cards:
        decks.append(_deck(Topic(DRILLS_DECK[0], DRILLS_DECK[1], 0), drill_cards, site, note_type,
                           first=len(everything) + 1, what="coding drills"))
        everything += drill_cards
    apkg, tsv = (site_dir / files[""][kind] for kind in ("apkg", "tsv"))
    write_apkg(apkg, decks, timestamp)
    write_tsv(tsv, everything)
    return [*written, apkg, tsv]
