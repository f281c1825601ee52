"""The Anki decks and their TSV twins: what a reader imports, opened as Anki opens it (a zip
holding a SQLite collection), and the ids that let a newer deck update the reader's cards."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import genanki
import pytest

from helpers import ROOT, mkdocs_env
from question_pages.exports.decks import (
    MODEL_KEY,
    Card,
    DeckError,
    page_cards,
    stable_id,
    to_html,
    write_decks,
    write_tsv,
)
from question_pages.format.loading import question_page_paths
from question_pages.format.model import Page
from question_pages.format.parse import parse_page
from question_pages.format.published import read_ledger
from question_pages.format.topics import Topic, load_topics
from question_pages.scaffold import scaffold_topic
from question_pages.site_checks import check_site
from question_pages.sitewide.downloads import deck_uris
from question_pages.sitewide.site_urls import Site
from site_fixture import FIXTURES

SITE = Site.make("PyTorch Interview Questions", "https://pytorch-interview-questions.github.io/")
GOOD_URL = "https://pytorch-interview-questions.github.io/export/good-page/"
GOOD_QUESTION = "What does the fixture snippet print, and why does it matter?"


def _notes(apkg: Path, tmp_path: Path) -> list[dict]:
    """Every note of a package, with its card and deck, as Anki's importer reads them."""
    with zipfile.ZipFile(apkg) as archive:
        assert sorted(archive.namelist()) == ["collection.anki2", "media"]
        assert archive.read("media") == b"{}"
        handle, name = tempfile.mkstemp(suffix=".anki2", dir=tmp_path)
        os.close(handle)
        db = Path(name)
        db.write_bytes(archive.read("collection.anki2"))
    connection = sqlite3.connect(db)
    try:
        rows = connection.execute(
            "SELECT notes.id, notes.guid, notes.mid, notes.mod, notes.tags, notes.flds, cards.id, "
            "cards.did, cards.due, cards.type, cards.queue FROM notes "
            "JOIN cards ON cards.nid = notes.id ORDER BY notes.guid").fetchall()
        (cards,) = connection.execute("SELECT COUNT(*) FROM cards").fetchone()
    finally:
        connection.close()
    assert cards == len(rows), "one card per note"
    return [{"id": r[0], "guid": r[1], "model": r[2], "mod": r[3], "tags": r[4].split(),
             "fields": r[5].split("\x1f"), "card": r[6], "deck": r[7], "due": r[8],
             "new": (r[9], r[10]) == (0, 0)} for r in rows]


def _by_guid(notes: list[dict]) -> dict[str, dict]:
    return {note["guid"]: note for note in notes}


@pytest.fixture
def good_page(tmp_path: Path) -> Page:
    docs = tmp_path / "docs"
    (docs / "export").mkdir(parents=True)
    shutil.copy(FIXTURES / "good-page.md", docs / "export" / "good-page.md")
    return parse_page(docs / "export" / "good-page.md", docs)


def test_the_topic_deck_has_a_card_per_question_and_per_follow_up(built_site: Path,
                                                                   tmp_path: Path) -> None:
    notes = _by_guid(_notes(built_site / "decks" / "export.apkg", tmp_path))
    question = notes[genanki.guid_for("export/good-page")]
    follow_up = notes[genanki.guid_for("export/good-page", "Is the output ever typed by hand?")]
    other = genanki.guid_for("export/other-page")
    other_follow_up = genanki.guid_for("export/other-page", "Why does it exist?")
    assert set(notes) == {question["guid"], follow_up["guid"], other, other_follow_up}

    front, back, url = question["fields"]
    assert front == GOOD_QUESTION and url == GOOD_URL
    assert "<li>it prints a tensor</li>" in back and "<li>and an HTML tag, escaped</li>" in back
    assert "The fixture snippet prints a seeded tensor" in back
    assert back.index("Short answer") < back.index("Basics") < back.index(f'href="{GOOD_URL}"')
    for anchor in ("short-answer", "basics", "solid-answer"):
        assert f'href="{GOOD_URL}#{anchor}"' in back
    assert "A snippet's output is recorded by the engine" not in back, "the solid answer is linked"

    front, back, url = follow_up["fields"]
    assert front.startswith("Is the output ever typed by hand?")
    assert f"(from: {GOOD_QUESTION})" in front
    assert "<p>No. It comes from the record.</p>" in back
    assert f'href="{GOOD_URL}#follow-ups"' in back and url == f"{GOOD_URL}#follow-ups"

    assert {"topic::export", "level::middle", "importance::should_know", "fixture"} <= set(
        question["tags"])
    assert "follow-up" in follow_up["tags"] and "follow-up" not in question["tags"]
    assert {note["model"] for note in notes.values()} == {stable_id(MODEL_KEY)}
    assert {note["deck"] for note in notes.values()} == {stable_id("deck:export")}


def test_the_site_deck_holds_the_topic_decks_with_the_same_notes(built_site: Path,
                                                                 tmp_path: Path) -> None:
    topic = _by_guid(_notes(built_site / "decks" / "export.apkg", tmp_path))
    site = _by_guid(_notes(built_site / "decks" / "all_questions.apkg", tmp_path))
    assert set(site) == set(topic)
    for guid, note in topic.items():
        assert (site[guid]["id"], site[guid]["card"], site[guid]["fields"], site[guid]["deck"]) == (
            note["id"], note["card"], note["fields"], note["deck"])
    # Each deck says where its cards come from and on what terms (they are the pages' content).
    with zipfile.ZipFile(built_site / "decks" / "all_questions.apkg") as archive:
        db = tmp_path / "site.anki2"
        db.write_bytes(archive.read("collection.anki2"))
    connection = sqlite3.connect(db)
    try:
        (decks,) = connection.execute("SELECT decks FROM col").fetchone()
    finally:
        connection.close()
    description = json.loads(decks)[str(stable_id("deck:export"))]["desc"]
    assert description == (
        'torch.export: questions and follow-ups from <a href="https://pytorch-interview-questions'
        '.github.io/">PyTorch Interview Questions</a>, under '
        '<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.')
    # The topics without questions still get their (empty) deck, at the URL the ledger lists.
    assert _notes(built_site / "decks" / "compile.apkg", tmp_path) == []


def test_new_cards_come_in_learning_order_each_question_before_its_follow_ups(
        built_site: Path, tmp_path: Path) -> None:
    """Anki shows new cards by their position (`due`): the junior page, then its follow-up, then
    the middle page and its follow-up; the same positions in the topic's and the site's deck."""
    expected = [genanki.guid_for("export/other-page"),
                genanki.guid_for("export/other-page", "Why does it exist?"),
                genanki.guid_for("export/good-page"),
                genanki.guid_for("export/good-page", "Is the output ever typed by hand?")]
    for name in ("export", "all_questions"):
        notes = _notes(built_site / "decks" / f"{name}.apkg", tmp_path)
        assert all(note["new"] for note in notes)
        by_position = sorted(notes, key=lambda note: note["due"])
        assert [note["guid"] for note in by_position] == expected, name
        assert [note["due"] for note in by_position] == [1, 2, 3, 4], name
    rows = (built_site / "decks" / "export.tsv").read_text(encoding="utf-8").split("\n")[1:-1]
    notes = _by_guid(_notes(built_site / "decks" / "export.apkg", tmp_path))
    assert [row.split("\t")[0] for row in rows] == [notes[guid]["fields"][0] for guid in expected]


def test_positions_run_on_across_topics_in_topic_order(good_page: Page, tmp_path: Path) -> None:
    """A second topic's cards come after the first's in the site's deck, and keep those positions
    in their own topic's deck."""
    docs = good_page.path.parent.parent
    (docs / "compile").mkdir()
    text = (FIXTURES / "other-page.md").read_text(encoding="utf-8")
    (docs / "compile" / "other-page.md").write_text(text.replace("topic: export", "topic: compile"),
                                                    encoding="utf-8")
    moved = parse_page(docs / "compile" / "other-page.md", docs)
    topics = [Topic("compile", "torch.compile", 1), Topic("export", "torch.export", 2)]
    write_decks(tmp_path / "out", [good_page, moved], topics, SITE)
    site = sorted(_notes(tmp_path / "out" / "decks" / "all_questions.apkg", tmp_path),
                  key=lambda note: note["due"])
    assert [n["guid"] for n in site] == [
        genanki.guid_for("compile/other-page"), genanki.guid_for("compile/other-page", "Why does it exist?"),
        genanki.guid_for("export/good-page"),
        genanki.guid_for("export/good-page", "Is the output ever typed by hand?")]
    assert [n["due"] for n in site] == [1, 2, 3, 4]
    export = _notes(tmp_path / "out" / "decks" / "export.apkg", tmp_path)
    assert sorted(n["due"] for n in export) == [3, 4]


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                          timeout=120).stdout


def test_two_clones_of_one_commit_give_byte_identical_decks(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The deploy builds from a fresh clone, whose files all carry the time of the clone: the
    notes' time must come from the commit, not from the files, or every deploy would mark every
    card newer and Anki's import would overwrite the reader's own edits."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    built = []
    for number, age in enumerate((7200, 0)):  # made two hours apart, as far as the files can tell
        clone = tmp_path / f"clone{number}"
        _git("clone", "--quiet", str(ROOT), str(clone), cwd=tmp_path)
        stamp = time.time() - age
        for path in (clone / "docs").rglob("*"):
            os.utime(path, (stamp, stamp))
        docs = clone / "docs"
        pages = [parse_page(path, docs) for path in question_page_paths(docs)]
        write_decks(clone / "site", pages, load_topics(docs), SITE)
        built.append(clone)
    first, second = built
    pages = [p.relative_to(first).as_posix() for p in question_page_paths(first / "docs")]
    committed = int(_git("log", "-1", "--format=%ct", "--", *pages, cwd=first).strip())
    files = sorted(p.relative_to(first / "site") for p in (first / "site").rglob("*") if p.is_file())
    assert files and files == sorted(
        p.relative_to(second / "site") for p in (second / "site").rglob("*") if p.is_file())
    for rel in files:
        assert (first / "site" / rel).read_bytes() == (second / "site" / rel).read_bytes(), rel
    notes = _notes(first / "site" / "decks" / "all_questions.apkg", tmp_path)
    assert notes and {note["mod"] for note in notes} == {committed}


def test_two_builds_give_the_same_ids_and_the_same_bytes(built_site: Path, site_source: Path,
                                                         tmp_path: Path) -> None:
    again = tmp_path / "again"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(site_source / "mkdocs.yml"),
         "-d", str(again)], capture_output=True, text=True, env=mkdocs_env(), cwd=site_source,
        timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    first = _notes(built_site / "decks" / "all_questions.apkg", tmp_path)
    second = _notes(again / "decks" / "all_questions.apkg", tmp_path)
    assert [(n["guid"], n["id"], n["card"], n["fields"], n["mod"]) for n in first] == [
        (n["guid"], n["id"], n["card"], n["fields"], n["mod"]) for n in second]
    for name in ("decks/export.apkg", "decks/all_questions.apkg", "decks/export.tsv",
                 "decks/all_questions.tsv", "questions.json"):
        assert (built_site / name).read_bytes() == (again / name).read_bytes(), name


def test_a_changed_page_is_newer_with_the_same_ids(good_page: Page, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Anki updates a note on import when it is newer and has the GUID it knows."""
    topics = [Topic("export", "torch.export", 1)]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    write_decks(tmp_path / "old", [good_page], topics, SITE)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000500")
    good_page.section("Basics").body.append((999, "One more sentence about it."))
    write_decks(tmp_path / "new", [good_page], topics, SITE)
    old = _by_guid(_notes(tmp_path / "old" / "decks" / "export.apkg", tmp_path))
    new = _by_guid(_notes(tmp_path / "new" / "decks" / "export.apkg", tmp_path))
    assert set(old) == set(new)
    question = genanki.guid_for("export/good-page")
    assert "One more sentence about it." in new[question]["fields"][1]
    assert "One more sentence about it." not in old[question]["fields"][1]
    for guid in old:
        assert (old[guid]["id"], old[guid]["card"]) == (new[guid]["id"], new[guid]["card"])
        assert (old[guid]["mod"], new[guid]["mod"]) == (1800000000, 1800000500)


def test_ids_do_not_move_when_another_question_is_added(good_page: Page, tmp_path: Path) -> None:
    """The other page comes first in learning order (junior): a counter would shift every id."""
    docs = good_page.path.parent.parent
    shutil.copy(FIXTURES / "other-page.md", docs / "export" / "other-page.md")
    other = parse_page(docs / "export" / "other-page.md", docs)
    topics = [Topic("export", "torch.export", 1)]
    write_decks(tmp_path / "one", [good_page], topics, SITE)
    write_decks(tmp_path / "two", [good_page, other], topics, SITE)
    one = _by_guid(_notes(tmp_path / "one" / "decks" / "export.apkg", tmp_path))
    two = _by_guid(_notes(tmp_path / "two" / "decks" / "export.apkg", tmp_path))
    assert len(two) == len(one) + 2
    for guid, note in one.items():
        assert (note["id"], note["card"]) == (two[guid]["id"], two[guid]["card"])


def test_a_malformed_source_date_epoch_is_refused(good_page: Page, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(DeckError, match="SOURCE_DATE_EPOCH is 'yesterday', not a whole number"):
        write_decks(tmp_path, [good_page], [Topic("export", "torch.export", 1)], SITE)


def test_links_become_absolute_and_snippets_point_to_the_page(good_page: Page) -> None:
    card_html = to_html("See [basics](#basics), [the other page](other-page.md#code), "
                        "[compile](../compile/index.md) and [docs](https://docs.pytorch.org/x).",
                        good_page, SITE)
    assert f'href="{GOOD_URL}#basics"' in card_html
    assert 'href="https://pytorch-interview-questions.github.io/export/other-page/#code"' in card_html
    assert 'href="https://pytorch-interview-questions.github.io/compile/"' in card_html
    assert 'href="https://docs.pytorch.org/x"' in card_html
    follow_ups = good_page.section("Follow-ups")
    follow_ups.subsections[0].body.append((999, '{{ snippet("export/fixture_tensor.py") }}'))
    back = page_cards(good_page, SITE)[1].back
    assert "{{" not in back and "<code>snippets/export/fixture_tensor.py</code>" in back
    assert f'href="{GOOD_URL}#follow-ups"' in back


def test_the_tsv_has_the_same_cards_one_line_each(built_site: Path, tmp_path: Path) -> None:
    rows = (built_site / "decks" / "export.tsv").read_text(encoding="utf-8").split("\n")
    assert rows[0] == "front\tback\ttags\turl" and rows[-1] == ""
    cards = [row.split("\t") for row in rows[1:-1]]
    assert all(len(card) == 4 for card in cards)
    notes = _notes(built_site / "decks" / "export.apkg", tmp_path)
    assert sorted((c[0], c[1], c[3]) for c in cards) == sorted(tuple(n["fields"]) for n in notes)

    write_tsv(tmp_path / "x.tsv", [Card("g", "a\tb", "<pre>one\ntwo</pre>", "https://x/", ("t",))])
    assert (tmp_path / "x.tsv").read_text(encoding="utf-8").split("\n")[1] == (
        "a&#9;b\t<pre>one&#10;two</pre>\tt\thttps://x/")


def test_the_ledger_lists_every_deck_and_a_new_topic_adds_its_own(site_source: Path,
                                                                   tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(site_source, copy, ignore=shutil.ignore_patterns("site", ".cache"))
    changed = scaffold_topic(copy, "quantize", "Quantization", "How models get smaller.")
    assert "docs/published-urls.txt (+ decks/quantize.apkg)" in changed
    assert "docs/published-urls.txt (+ decks/quantize.tsv)" in changed
    listed = {uri for _, uri in read_ledger(copy)}
    assert set(deck_uris(["export", "compile", "deployment", "quantize"])) <= listed
    assert check_site(copy).errors == []

    ledger = copy / "docs" / "published-urls.txt"
    ledger.write_text(ledger.read_text().replace("decks/export.apkg\n", ""))
    (error,) = check_site(copy).errors
    assert "'decks/export.apkg' is not listed" in str(error)


def test_stable_ids_are_fixed_numbers() -> None:
    """Written down: a change here would make every reader's next import a new deck and a new
    note type."""
    assert stable_id("deck:export") == 1223594484
    assert stable_id(MODEL_KEY) == 1168080273
    assert stable_id("deck:export") != stable_id("deck:compile")


def test_the_site_deck_ends_with_a_card_per_drill(real_site: Path, tmp_path: Path) -> None:
    """The real site's package: a subdeck of the coding drills after every question, a card per
    drill (the task; the reference solution and its explanation), in no topic's package."""
    from question_pages.drills.bank import load_bank

    drills = load_bank(ROOT)
    assert drills, "the real site has no drill"
    notes = _notes(real_site / "decks" / "all_questions.apkg", tmp_path)
    cards = [n for n in notes if "drill" in n["tags"]]
    assert {n["guid"] for n in cards} == {genanki.guid_for(f"drills/{d.id}") for d in drills}
    assert {n["deck"] for n in cards} == {stable_id("deck:drills")}
    assert min(n["due"] for n in cards) > max(n["due"] for n in notes if n not in cards)
    for drill in drills:
        (note,) = [n for n in cards if n["guid"] == genanki.guid_for(f"drills/{drill.id}")]
        front, back, url = note["fields"]
        reference = drill.reference.read_text(encoding="utf-8")
        first = next(line for line in reference.splitlines() if line.startswith(("def ", "class ")))
        assert url.endswith(f"/drills/{drill.id}/") and "<p>" in front
        assert first.split("(")[0] in back and "Said aloud" in back, drill.id
        assert first.split("(")[0] not in front, f"{drill.id}: the front gives the solution away"
    for topic in load_topics(ROOT / "docs"):
        topic_notes = _notes(real_site / "decks" / f"{topic.id}.apkg", tmp_path)
        assert not [n for n in topic_notes if "drill" in n["tags"]], topic.id
    tsv = (real_site / "decks" / "all_questions.tsv").read_text(encoding="utf-8").splitlines()
    assert len(tsv) == 1 + len(notes)
