"""questions.json as the built site publishes it: valid against the schema the site publishes
beside it, complete, and true to the pages and records it describes."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
from bs4 import BeautifulSoup, Tag

from helpers import ROOT
from question_pages.format.loading import load_pages, question_page_paths
from question_pages.format.model import follow_up_anchors
from question_pages.format.topics import load_topics
from question_pages.sitewide.catalog import learning_order
from question_pages.sitewide.site_urls import Site, SiteUrlError
from snippet_engine.records.pins import pinned_torch
from snippet_engine.records.record_file import read_record

SITE_URL = "https://pytorch-interview-questions.github.io/"


def _load(site: Path) -> tuple[dict, jsonschema.Draft202012Validator]:
    index = json.loads((site / "questions.json").read_text(encoding="utf-8"))
    schema = json.loads((site / "questions.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return index, jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def real_index(real_site: Path) -> tuple[dict, jsonschema.Draft202012Validator]:
    return _load(real_site)


def test_the_built_index_validates_against_the_built_schema(real_index) -> None:
    index, validator = real_index
    errors = sorted(validator.iter_errors(index), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
    assert index["version"] == 2 and index["torch"] == pinned_torch(ROOT)
    assert index["$schema"] == SITE_URL + "questions.schema.json"


def test_the_schema_rejects_a_broken_entry(real_index) -> None:
    index, validator = real_index
    no_url = copy.deepcopy(index)
    del no_url["questions"][0]["url"]
    assert ["'url' is a required property"] == [e.message for e in validator.iter_errors(no_url)]
    bad_status = copy.deepcopy(index)
    entry = next(q for q in bad_status["questions"] if q["snippets"])
    entry["snippets"][0]["devices"]["cpu"]["status"] = "fine"
    assert any("'fine' is not one of" in e.message for e in validator.iter_errors(bad_status))
    relative = copy.deepcopy(index)
    relative["questions"][0]["url"] = relative["questions"][0]["path"]
    assert not validator.is_valid(relative)
    no_answers = copy.deepcopy(index)
    del no_answers["questions"][0]["answers"]
    assert ["'answers' is a required property"] == [
        e.message for e in validator.iter_errors(no_answers)]
    text_only = copy.deepcopy(index)
    del text_only["questions"][0]["answers"]["short_answer"][0]["html"]
    assert ["'html' is a required property"] == [e.message for e in validator.iter_errors(text_only)]
    unanswered = copy.deepcopy(index)
    entry = next(q for q in unanswered["questions"] if q["follow_ups"])
    del entry["follow_ups"][0]["answer"]
    assert ["'answer' is a required property"] == [
        e.message for e in validator.iter_errors(unanswered)]
    unlicensed = copy.deepcopy(index)
    del unlicensed["license"]
    assert ["'license' is a required property"] == [
        e.message for e in validator.iter_errors(unlicensed)]


def test_every_question_in_learning_order_at_its_built_url(real_site: Path, real_index) -> None:
    index, _ = real_index
    pages, errors = load_pages(ROOT)
    assert not errors
    assert [q["id"] for q in index["questions"]] == [p.page_id for p in learning_order(pages)]
    assert len(index["questions"]) == len(question_page_paths(ROOT / "docs"))
    by_id = {p.page_id: p for p in pages}
    for question in index["questions"]:
        page = by_id[question["id"]]
        built = (real_site / question["path"] / "index.html").read_text(encoding="utf-8")
        assert question["url"] == SITE_URL + question["path"]
        for section in question["sections"]:
            assert f'id="{section["anchor"]}"' in built, (question["id"], section["anchor"])
            assert section["url"] == f'{question["url"]}#{section["anchor"]}'
        assert (question["level"], question["importance"], question["frequency"],
                question["topic"], question["tags"]) == (
            page.meta["level"], page.meta["importance"], page.meta["frequency"],
            page.meta["topic"], page.meta["tags"])
        assert [r["id"] for r in question["related"]] == page.meta["related"]
        for related in question["related"]:
            assert (real_site / related["path"] / "index.html").is_file()
        assert [f["question"] for f in question["follow_ups"]] == [
            s.title for s in page.section("Follow-ups").subsections]
    assert [t["id"] for t in index["topics"]] == [t.id for t in load_topics(ROOT / "docs")]
    for topic in index["topics"]:
        assert (real_site / topic["path"] / "index.html").is_file()
        for kind in ("apkg", "tsv"):
            assert (real_site / topic["decks"][kind].removeprefix(SITE_URL)).is_file()


def test_the_practice_panels_learning_list_is_the_index_in_short(real_site: Path, real_index) -> None:
    """The practice panel fetches this after each rating: the same questions in the same order as
    questions.json, with only what the "Next:" link needs (and what a study plan chooses by, so
    that "Next" follows the reader's plan), a small fraction of its bytes."""
    index, _ = real_index
    order = real_site / "assets" / "learning-order.json"
    listed = json.loads(order.read_text(encoding="utf-8"))["questions"]
    keys = ("id", "path", "question", "topic", "level", "importance", "frequency")
    assert listed == [{key: q[key] for key in keys} for q in index["questions"]]
    assert order.stat().st_size * 10 < (real_site / "questions.json").stat().st_size


def test_snippets_with_each_devices_record(built_site: Path) -> None:
    """The fixture site's snippets, whose records are known: a CPU-only expected error, a CUDA
    record from another torch, a snippet with no CUDA record."""
    index, validator = _load(built_site)
    assert validator.is_valid(index)
    questions = {q["id"]: q for q in index["questions"]}
    good = {s["path"]: s for s in questions["export/good-page"]["snippets"]}
    assert list(good) == ["snippets/export/fixture_tensor.py", "snippets/export/fixture_error.py"]
    assert good["snippets/export/fixture_tensor.py"]["section"] == "Code"
    error = good["snippets/export/fixture_error.py"]
    assert error["section"] == "Explainer" and list(error["devices"]) == ["cpu"]
    assert error["devices"]["cpu"]["status"] == "current"
    assert error["devices"]["cpu"]["outcome"] == "expected-error"
    assert error["devices"]["cpu"]["torch"].startswith(pinned_torch(ROOT) + "+")
    # The code without its `#|` lines, numbered from the file's third line; the output as recorded.
    assert (error["code"], error["first_line"]) == (
        "import torch\nprint('multiplying')\ntorch.ones(2) @ torch.ones(3)\n", 3)
    assert error["devices"]["cpu"]["output"].startswith("multiplying\n")
    assert "RuntimeError" in error["devices"]["cpu"]["output"]
    tensor_cuda = good["snippets/export/fixture_tensor.py"]["devices"]["cuda"]
    assert tensor_cuda["torch"] == "2.13.0+cu130" and tensor_cuda["pinned_torch"] is True

    other = {s["path"]: s for s in questions["export/other-page"]["snippets"]}
    plain_cuda = other["snippets/export/fixture_plain.py"]["devices"]["cuda"]
    assert (plain_cuda["status"], plain_cuda["torch"], plain_cuda["recorded"]) == (
        "missing", None, None)
    assert plain_cuda["output"] is None
    assert other["snippets/export/fixture_plain.py"]["devices"]["cpu"]["output"] == (
        "plain output, no CUDA record\n")
    old_cuda = other["snippets/export/fixture_old.py"]["devices"]["cuda"]
    assert old_cuda["torch"] == "2.12.0+cu126" and old_cuda["pinned_torch"] is False
    assert old_cuda["status"] == "stale" and "2.12.0+cu126" in old_cuda["detail"]


def test_urls_follow_mkdocs_and_a_site_without_url_is_refused() -> None:
    site = Site.make("S", "https://example.org/guide")
    assert site.url == "https://example.org/guide/"
    assert site.page_path("export/graph-signature") == "export/graph-signature/"
    assert site.path("export/index.md") == "export/" and site.path("index.md") == ""
    flat = Site.make("S", "https://example.org/", use_directory_urls=False)
    assert flat.page_path("export/graph-signature") == "export/graph-signature.html"
    assert flat.path("export/index.md") == "export/index.html"
    with pytest.raises(SiteUrlError, match=r"Set site_url in mkdocs\.yml"):
        Site.make("S", None)


def test_the_drills_are_in_the_index_as_their_files_and_pages_are(real_site: Path, real_index) -> None:
    """Every drill, with its download beside its page in the built site, its starter and reference
    exactly as the files are, its tests in the judge's order and its mistakes with the test each
    fails; a drill without its download is refused by the schema."""
    from question_pages.drills.bank import load_bank

    index, validator = real_index
    bank = {drill.id: drill for drill in load_bank(ROOT)}
    assert sorted(d["id"] for d in index["drills"]) == sorted(bank)
    for entry in index["drills"]:
        drill = bank[entry["id"]]
        assert entry["url"] == SITE_URL + entry["path"] and entry["path"] == f"drills/{drill.id}/"
        assert entry["download"] == f"{SITE_URL}drills/{drill.id}/drill_{drill.id}.py"
        assert (real_site / entry["download"].removeprefix(SITE_URL)).is_file()
        assert entry["starter"] == drill.starter.read_text(encoding="utf-8")
        assert entry["reference"] == drill.reference.read_text(encoding="utf-8")
        assert [t["name"] for t in entry["tests"]] == list(drill.tests)
        assert all(t["checks"] for t in entry["tests"]), entry["tests"]
        assert [(m["name"], m["fails"]) for m in entry["mistakes"]] == \
            [(m.name, m.fails) for m in drill.mistakes]
    no_download = copy.deepcopy(index)
    del no_download["drills"][0]["download"]
    assert ["'download' is a required property"] == [e.message for e in validator.iter_errors(no_download)]


def _shown_code(path: str) -> tuple[str, int]:
    """The snippet file's text as a page shows it, read here from the file itself: from its first
    line that is neither a `#|` option line nor a blank line among or right after them, every
    line but the `#|` ones (the engine's options, which the page shows as badges)."""
    lines = (ROOT / path).read_text(encoding="utf-8").split("\n")
    option = re.compile(r"^#\|")
    first = 0
    while first < len(lines) and (option.match(lines[first]) or not lines[first].strip()):
        first += 1
    return "\n".join(line for line in lines[first:] if not option.match(line)), first + 1


def test_every_snippet_gives_its_code_as_shown_and_each_devices_recorded_output(
        real_site: Path, real_index) -> None:
    """Each snippet's code is its file as the page shows it, and the built page's code block has
    that text; each declared device's output is its record's, read by the engine's record reader
    from snippets/<topic>/<name>.<device>.txt (null where there is no record); the schema refuses
    a snippet without its code and a record without its output."""
    index, validator = real_index
    seen = outputs = 0
    for question in index["questions"]:
        built = BeautifulSoup((real_site / question["path"] / "index.html").read_text(encoding="utf-8"),
                              "html.parser")
        titles = {span.get_text(): span for span in built.select("span.filename")}
        for snippet in question["snippets"]:
            seen += 1
            assert (snippet["code"], snippet["first_line"]) == _shown_code(snippet["path"]), \
                snippet["path"]
            title = titles.get(snippet["path"])
            assert isinstance(title, Tag), (question["id"], snippet["path"])
            block = title.find_next("code")
            assert isinstance(block, Tag)
            assert block.get_text().rstrip("\n") == snippet["code"].rstrip("\n"), snippet["path"]
            for device, entry in snippet["devices"].items():
                record = read_record(ROOT / f'{snippet["path"].removesuffix(".py")}.{device}.txt')
                if record is None:
                    assert entry["output"] is None, (snippet["path"], device)
                    continue
                outputs += 1
                assert entry["output"] == record.output, (snippet["path"], device)
                assert (entry["torch"], entry["outcome"]) == (record.torch, record.status)
    assert seen >= 100 and outputs >= 100, (seen, outputs)
    no_code = copy.deepcopy(index)
    entry = next(q for q in no_code["questions"] if q["snippets"])
    del entry["snippets"][0]["code"]
    assert ["'code' is a required property"] == [e.message for e in validator.iter_errors(no_code)]
    no_output = copy.deepcopy(index)
    entry = next(q for q in no_output["questions"] if q["snippets"])
    del entry["snippets"][0]["devices"]["cpu"]["output"]
    assert ["'output' is a required property"] == [e.message for e in validator.iter_errors(no_output)]


def test_every_follow_up_links_to_its_own_anchor_on_the_built_page(real_site: Path, real_index) -> None:
    """Each follow-up's URL is its page's URL and its own anchor; that id is on the built page once,
    on the folded follow-up whose summary is the question, and no two follow-ups share one."""
    index, validator = real_index
    linked = 0
    for question in index["questions"]:
        text = (real_site / question["path"] / "index.html").read_text(encoding="utf-8")
        built = BeautifulSoup(text, "html.parser")
        anchors = [f["anchor"] for f in question["follow_ups"]]
        assert len(set(anchors)) == len(anchors), question["id"]
        for follow_up in question["follow_ups"]:
            anchor = follow_up["anchor"]
            assert follow_up["url"] == f'{question["url"]}#{anchor}'
            assert anchor != "follow-ups" and text.count(f'id="{anchor}"') == 1, (question["id"], anchor)
            element = built.find(id=anchor)
            assert isinstance(element, Tag) and element.name == "details", (question["id"], anchor)
            assert "question" in element.get("class", [])
            summary = element.find("summary")
            assert isinstance(summary, Tag)
            assert " ".join(summary.get_text().split()) == " ".join(follow_up["question_text"].split())
            linked += 1
        assert len(built.select("details.question[id^=follow-up]")) == len(question["follow_ups"])
    assert linked >= 100, linked
    unanchored = copy.deepcopy(index)
    entry = next(q for q in unanchored["questions"] if q["follow_ups"])
    del entry["follow_ups"][0]["anchor"]
    assert ["'anchor' is a required property"] == [e.message for e in validator.iter_errors(unanchored)]


def test_a_follow_ups_anchor_depends_on_its_own_words_only() -> None:
    titles = ["Why is `x.grad` None after `backward()`?", "What does `torch.export` do?"]
    assert follow_up_anchors(titles) == ["follow-up-why-is-x-grad-none-after-backward",
                                         "follow-up-what-does-torch-export-do"]
    # Adding, removing or moving another follow-up leaves an anchor as it is.
    assert follow_up_anchors(["A new one first?", *titles])[1:] == follow_up_anchors(titles)
    assert follow_up_anchors(titles[::-1]) == follow_up_anchors(titles)[::-1]
    # The first eight words; a repeat on the page is numbered.
    long = "One two three four five six seven eight nine ten?"
    assert follow_up_anchors([long, long + " Eleven?", "!"]) == [
        "follow-up-one-two-three-four-five-six-seven-eight",
        "follow-up-one-two-three-four-five-six-seven-eight-2", "follow-up"]
