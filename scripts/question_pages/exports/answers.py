"""A question's answers as questions.json gives them: each as plain text and as HTML.

What a guide author reuses is what the page says: the short answer's bullets, the basics and the
solid answer (with their word counts, from which the page states the speaking time), the Go deeper
notes for each level, each follow-up with its answer and its own anchor, and the red flags. Both
forms come from the page's own Markdown through `markdown_html` (links made absolute, a snippet
line made a pointer to the page), the text read from the HTML, so the two never disagree; tests
compare them with the built page's text.
"""

from __future__ import annotations

import re

from question_pages.format.model import ANCHORS, Page, Section, follow_up_anchors
from question_pages.format.parse import bullet_items, words
from question_pages.render.markdown_html import html_to_text, inline_html, snippets_as_pointers, to_html
from question_pages.sitewide.site_urls import Site

_MARKER = re.compile(r"^\s*[-*+]\s+")


def text_and_html(html: str) -> dict:
    return {"text": html_to_text(html), "html": html}


def _block(section: Section | None, page: Page, site: Site, anchor: str) -> dict:
    body = section.body if section else []
    return text_and_html(to_html(snippets_as_pointers(body, anchor), page, site))


def _bullets(section: Section | None, page: Page, site: Site) -> list[dict]:
    items, _ = bullet_items(section.body if section else [])
    return [text_and_html(inline_html(_MARKER.sub("", item), page, site)) for _, item in items]


def _spoken(page: Page, site: Site, title: str) -> dict:
    section = page.section(title)
    return {**_block(section, page, site, ANCHORS[title]),
            "words": words(section.text) if section else 0}


def answers(page: Page, site: Site) -> dict:
    """The page's answers, but the follow-ups (`follow_ups`, which questions.json lists apart)."""
    go_deeper = page.section("Go deeper")
    return {
        "short_answer": _bullets(page.section("Short answer"), page, site),
        "basics": _spoken(page, site, "Basics"),
        "solid_answer": _spoken(page, site, "Solid answer"),
        "go_deeper": [
            {"level": sub.title.lower(),
             **text_and_html(to_html(snippets_as_pointers(sub.body, ANCHORS["Go deeper"]),
                                     page, site))}
            for sub in (go_deeper.subsections if go_deeper else [])],
        "red_flags": _bullets(page.section("Red flags"), page, site),
    }


def follow_ups(page: Page, site: Site) -> list[dict]:
    """Each follow-up: its question as written (Markdown), as text and as HTML, its own anchor on
    the page (the id render.page gives its <details>, `follow_up_anchors`) and URL, and its answer."""
    page_url = site.absolute(site.page_path(page.page_id))
    section = page.section("Follow-ups")
    subsections = section.subsections if section else []
    anchors = follow_up_anchors([sub.title for sub in subsections])
    entries = []
    for sub, anchor in zip(subsections, anchors, strict=True):
        question = inline_html(sub.title, page, site)
        answer = to_html(snippets_as_pointers(sub.body, ANCHORS["Follow-ups"]), page, site)
        entries.append({"question": sub.title, "question_text": html_to_text(question),
                        "question_html": question, "anchor": anchor, "url": f"{page_url}#{anchor}",
                        "answer": text_and_html(answer)})
    return entries
