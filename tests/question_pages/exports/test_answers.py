"""questions.json's answers say what the built pages say: every question's short answer, basics,
solid answer, Go deeper notes, follow-ups and red flags, as text and as HTML, read back from the
built page with another HTML parser (BeautifulSoup) and compared word for word."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from question_pages.render.markdown_html import html_to_text

SITE_URL = "https://pytorch-interview-questions.github.io/"
KNOWN = "export/graph-signature"
# What stands for a snippet in an answer: the page shows the code and its output there instead.
POINTER = re.compile(r"\(The page (?:runs|shows) snippets/\S+ here[^)]*\.\)")


def _words(text: str) -> str:
    return " ".join(text.split())


def _from_text(text: str) -> str:
    """The `text` form as a reader reads it on the page: list markers and snippet pointers off."""
    return _words(POINTER.sub("", re.sub(r"(?m)^\s*(?:-|\d+\.)\s+", "", text)))


def _from_html(fragment: str) -> str:
    """The `html` form's text; blocks apart (its HTML is on one line, where the page's has breaks)."""
    spaced = re.sub(r"(</(?:p|li|pre|ul|ol|blockquote)>)", r"\1 ", fragment)
    return _words(POINTER.sub("", BeautifulSoup(spaced, "html.parser").get_text()))


def _between(built: str, start: str, end: str) -> BeautifulSoup:
    """The part of a built page from one section's heading to another's, parsed: the code and the
    explainer, most of a page, are left out."""
    def heading(anchor: str, after: int = 0) -> int:
        found = re.compile(rf'<h2\b[^>]*\bid="{anchor}"').search(built, after)
        assert found, f"no <h2 id={anchor}> on the page"
        return found.start()

    first = heading(start)
    return BeautifulSoup(built[first:heading(end, first)], "html.parser")


def _after(soup: BeautifulSoup, anchor: str) -> list:
    heading = soup.find("h2", id=anchor)
    assert isinstance(heading, Tag), anchor
    nodes = []
    for node in heading.next_siblings:
        if isinstance(node, Tag) and node.name == "h2":
            break
        nodes.append(node)
    return nodes


def _text(nodes: list) -> str:
    return _words("".join(n.get_text() if isinstance(n, Tag) else str(n) for n in nodes))


def page_answers(built: str) -> dict:
    """The answers as the built page shows them, in questions.json's shape (text only). A tie's
    mark (a small link to the evidence, render/ties.py) is not part of the answer's text."""
    built = re.sub(r'\s*<a class="tie tie-\w+"[^>]*>.*?</a>', "", built, flags=re.DOTALL)
    top = _between(built, "short-answer", "code")
    (bullets,) = [n for n in _after(top, "short-answer") if isinstance(n, Tag) and n.name == "ul"]
    spoken = {}
    for anchor in ("basics", "solid-answer"):
        nodes = _after(top, anchor)
        note = next(n for n in nodes if isinstance(n, Tag) and "speaking-time" in n.get("class", []))
        words = int(re.search(r"\((\d+) words", note.get_text()).group(1))
        spoken[anchor] = (_text([n for n in nodes if n is not note]), words)
    tiers = _between(built, "go-deeper", "explainer")
    tabs = tiers.select(".tabbed-set")[0]
    end = _between(built, "follow-ups", "sources")
    follow_ups = []
    for details in end.select("details.question"):
        for snippet in details.select("section.snippet"):
            snippet.decompose()
        summary = details.find("summary")
        question = summary.get_text()
        summary.decompose()
        follow_ups.append((_words(question), _words(details.get_text())))
    return {
        "short_answer": [_words(li.get_text()) for li in bullets.find_all("li", recursive=False)],
        "basics": spoken["basics"],
        "solid_answer": spoken["solid-answer"],
        "go_deeper": [(label.get_text().lower(), _words(block.get_text())) for label, block in
                      zip(tabs.select(".tabbed-labels label"),
                          tabs.select(".tabbed-content > .tabbed-block"), strict=True)],
        "follow_ups": follow_ups,
        "red_flags": [_words(li.get_text()) for li in end.select(".admonition.danger li")],
    }


@pytest.fixture(scope="module")
def questions(real_site: Path) -> dict[str, dict]:
    index = json.loads((real_site / "questions.json").read_text(encoding="utf-8"))
    return {q["id"]: q for q in index["questions"]}


def _read(real_site: Path, question: dict) -> str:
    return (real_site / question["path"] / "index.html").read_text(encoding="utf-8")


def test_a_known_page_gives_its_answers(real_site: Path, questions: dict[str, dict]) -> None:
    question = questions[KNOWN]
    answers = question["answers"]
    assert [b["html"] for b in answers["short_answer"]][::4] == [
        "<code>ep.graph_signature</code>: one spec per placeholder and output",
        "<code>ep.module()</code> puts the state back as attributes"]
    assert answers["short_answer"][3]["text"] == "Lifting makes the graph a pure function"
    assert answers["basics"]["text"].endswith(
        "Weights are passed in as inputs, so the graph never reads module state.")
    assert answers["solid_answer"]["text"].count("\n\n") == 1  # its two paragraphs
    assert answers["solid_answer"]["html"].startswith(
        "<p>An exported graph has no get-attr nodes for weights.")
    assert [tier["level"] for tier in answers["go_deeper"]] == [
        "junior", "middle", "senior", "principal"]
    (follow_up,) = [f for f in question["follow_ups"] if "non-persistent" in f["question"]]
    assert follow_up["question_text"] == (
        "Why is a non-persistent buffer in constants and not in state_dict?")
    assert "<code>persistent=False</code>" in follow_up["answer"]["html"]
    assert answers["red_flags"][0]["text"].startswith(
        '"The exported graph reads its weights from module attributes."')
    # The page's own anchors become absolute links: the HTML is read far from the page.
    assert f'href="{SITE_URL}export/graph-signature/#why-lift-at-all"' in (
        answers["red_flags"][0]["html"])
    page = page_answers(_read(real_site, question))
    assert page["basics"] == (_from_text(answers["basics"]["text"]), answers["basics"]["words"])


def test_every_answer_reads_as_its_page_in_text_and_in_html(real_site: Path,
                                                            questions: dict[str, dict]) -> None:
    assert len(questions) >= 40
    for page_id, question in questions.items():
        page = page_answers(_read(real_site, question))
        answers = question["answers"]
        for form, read in (("text", _from_text), ("html", _from_html)):
            where = f"{page_id} ({form})"
            assert [read(b[form]) for b in answers["short_answer"]] == page["short_answer"], where
            for key in ("basics", "solid_answer"):
                assert (read(answers[key][form]), answers[key]["words"]) == page[key], (where, key)
            assert [(t["level"], read(t[form])) for t in answers["go_deeper"]] == (
                page["go_deeper"]), where
            assert [(read(f[f"question_{form}"]), read(f["answer"][form]))
                    for f in question["follow_ups"]] == page["follow_ups"], where
            assert [read(r[form]) for r in answers["red_flags"]] == page["red_flags"], where
        for link in re.findall(r'href="([^"]*)"', json.dumps(answers) + json.dumps(
                question["follow_ups"])):
            assert link.startswith(("https://", "http://")), (page_id, link)


def test_plain_text_keeps_paragraphs_lists_and_code_apart() -> None:
    fragment = ('<p>One <code>x</code>\n  two.</p><ul><li>a <b>b</b></li><li>c<ol><li>d</li>'
                '<li>e</li></ol></li></ul><p>f &amp; <a href="https://x/">g</a></p>'
                "<pre><code>def f():\n    return 1\n\nf()\n</code></pre><p>h</p>")
    assert html_to_text(fragment) == (
        "One x two.\n\n- a b\n- c\n  1. d\n  2. e\n\nf & g\n\ndef f():\n    return 1\n\nf()\n\nh")
