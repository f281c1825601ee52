"""The left navigation: the topics in learning order (docs/topics.yml), each topic's questions in
learning order, every topic under one "Topics" entry, and on each page no more of its topic's
questions than a reader scans (`bounded_for`)."""

from __future__ import annotations

import copy

from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page as MkPage

from question_pages.format.model import Page
from question_pages.format.topics import Topic
from question_pages.sitewide.catalog import learning_order, order_nav_children, order_nav_sections

TOPICS_SECTION = "Topics"  # the navigation's one entry for every topic


def order_navigation(nav: Navigation, pages: list[Page], topics: list[Topic]) -> None:
    """Put `nav` in the site's order, in place."""
    order = [p.page_id + ".md" for p in learning_order(pages)]
    nav.items = order_nav_sections(nav.items, [t.id for t in topics], {t.id: t.title for t in topics})
    for item in nav.items:
        if getattr(item, "children", None):
            item.children = order_nav_children(item.children, order)
    nav.items = under_one_section(nav.items, {t.title for t in topics}, TOPICS_SECTION)


def under_one_section(items: list, titles: set[str], title: str) -> list:
    """The topics' sections as the children of one section, where the first of them was. With
    navigation.prune a page that is not in a topic shows that one section, collapsed, in place of
    an entry per topic, so the index and the other pages do not grow with the number of topics
    (tests/browser/test_weight.py); a question page shows the topics, and its own topic's
    questions, under it."""
    grouped = [item for item in items if item.is_section and item.title in titles]
    if not grouped:
        return items
    section = Section(title, grouped)
    for child in grouped:
        child.parent = section
    at = items.index(grouped[0])
    rest = [item for item in items if item not in grouped]
    return [*rest[:at], section, *rest[at:]]


# A topic's questions a page's navigation lists at most: the page's neighbours in learning order.
# A topic of more questions shows this window and a link to the topic's page, which lists them all:
# the navigation was most of a question page's elements, and grew with its topic (885 elements
# with today's topics, 1,569 with 228 more questions in them).
NEIGHBOURS = 9


def bounded_for(nav: Navigation, page: MkPage, topics_section: str = TOPICS_SECTION,
                neighbours: int = NEIGHBOURS) -> Navigation:
    """The navigation `page` is rendered with: `nav` itself, or, when the page is in a topic of
    more than `neighbours` questions, a copy whose topic lists only the `neighbours` questions
    around the page (fewer before it near the start, fewer after near the end) and a last link to
    the topic's page. `nav` is left as it is (every other page, the previous/next links and the
    sitemap read it)."""
    top = next((item for item in nav.items if item.is_section and item.title == topics_section), None)
    topic = next((child for child in (top.children if top else []) if child.is_section and child.active),
                 None)
    if top is None or topic is None:
        return nav
    index = next((child for child in topic.children if getattr(child, "is_index", False)), None)
    questions = [child for child in topic.children if child is not index]
    if len(questions) <= neighbours:
        return nav
    at = next((i for i, child in enumerate(questions) if child is page), 0)
    start = min(max(at - neighbours // 2, 0), len(questions) - neighbours)
    window = questions[start:start + neighbours]
    all_of_them = Link(f"All {len(questions)} questions", index.url if index is not None else "")
    new_topic = copy.copy(topic)
    new_topic.children = [*([index] if index is not None else []), *window, all_of_them]
    all_of_them.parent = new_topic
    new_top = copy.copy(top)
    new_top.children = [new_topic if child is topic else child for child in top.children]
    bounded = copy.copy(nav)
    bounded.items = [new_top if item is top else item for item in nav.items]
    return bounded
