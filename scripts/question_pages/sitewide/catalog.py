"""Views over all pages: the filterable question table, topic learning paths, titles by id."""

from __future__ import annotations

import html
import posixpath
from collections.abc import Callable, Mapping

from question_pages.format.model import IMPORTANCE, LEVELS, Page, frequency_band

LEVEL_RANK = {level: rank for rank, level in enumerate(LEVELS)}
IMPORTANCE_RANK = {value: rank for rank, value in enumerate(IMPORTANCE)}


def learning_order(pages: list[Page]) -> list[Page]:
    """Junior to principal; within a level, what matters most and comes up most first."""
    return sorted(pages, key=lambda p: (LEVEL_RANK[p.meta["level"]],
                                        IMPORTANCE_RANK[p.meta["importance"]],
                                        -p.meta["frequency"], p.page_id))


def titles(pages: list[Page]) -> dict[str, str]:
    return {page.page_id: page.question for page in pages}


def _link(from_id: str, to_id: str) -> str:
    """A Markdown link from one docs page to another, relative, by source file."""
    return posixpath.relpath(to_id + ".md", posixpath.dirname(from_id) or ".")


PROGRESS_FILTER = (("", "All"), ("not-started", "Not started"), ("due", "Due today"),
                   ("review", "Review"), ("done", "Done"))
SORTS = (  # (key, label): what the sort control and the column headers offer
    ("learning", "Learning order"), ("frequency", "Most frequent"), ("importance", "Most important"),
    ("level", "Level, junior first"), ("question", "Question, A to Z"), ("topic", "Topic"))


FIRST_ROWS = 40  # rows the index serves in its HTML; questions.js fetches the rest when asked
ROWS_FILE = "question-rows.html"  # beside the index page: the rows after the first FIRST_ROWS


def _topics_present(pages: list[Page], topic_order: list[str]) -> list[str]:
    present = {p.meta["topic"] for p in pages}
    return [t for t in topic_order if t in present] + sorted(present - set(topic_order))


def question_rows(pages: list[Page], href: Callable[[str], str], topic_order: list[str],
                  start: int = 0, stop: int | None = None) -> str:
    """The index's table rows from `start` to `stop` in learning order, as questions.js filters
    and sorts them (the data attributes) and progress.js marks them (the progress cell)."""
    topic_rank = {topic: rank for rank, topic in enumerate(_topics_present(pages, topic_order))}
    rows = []
    for rank, page in list(enumerate(learning_order(pages)))[start:stop]:
        meta = page.meta
        band = frequency_band(meta["frequency"])
        rows.append(
            f'<tr data-id="{page.page_id}" data-level="{meta["level"]}" '
            f'data-importance="{html.escape(meta["importance"])}" '
            f'data-topic="{html.escape(meta["topic"])}" data-frequency="{meta["frequency"]}" '
            f'data-level-rank="{LEVEL_RANK[meta["level"]]}" '
            f'data-importance-rank="{IMPORTANCE_RANK[meta["importance"]]}" '
            f'data-topic-rank="{topic_rank[meta["topic"]]}" data-learning-rank="{rank}">'
            f'<td class="q"><a href="{html.escape(href(page.page_id))}">'
            f"{html.escape(page.question)}</a></td>"
            f'<td data-label="Level">{meta["level"].capitalize()}</td>'
            f'<td data-label="Importance">{meta["importance"].capitalize()}</td>'
            f'<td data-label="Comes up" title="about {meta["frequency"]}% (editor\'s estimate)">'
            f"{band.capitalize()}</td>"
            f'<td data-label="Topic">{html.escape(meta["topic"])}</td>'
            '<td class="progress-cell needs-js" data-label="Your progress">Not started</td></tr>')
    return "".join(rows)


def question_table(pages: list[Page], href: Callable[[str], str], topic_order: list[str],
                   topic_titles: Mapping[str, str] | None = None) -> str:
    """An HTML table with data attributes that docs/assets/javascripts/questions.js filters and
    sorts, keeping both in the page's URL so that a guide can link to a view.

    It holds the first FIRST_ROWS questions in learning order, so that a first visit weighs the
    same however large the bank grows; the rest are in ROWS_FILE beside the page
    (`question_rows(..., start=FIRST_ROWS)`, written by the hooks), which questions.js fetches when
    the reader filters, sorts, asks for every question, or has progress to show. Each topic's page
    (`href("<topic>/index")`, titled from `topic_titles`) lists all of its questions, with or
    without JavaScript.

    It is raw HTML, which MkDocs does not rewrite, so `href(page_id)` gives each final URL. The
    topic filter lists the topics in learning order. The controls stay out of the search index:
    their option words would match every search for "senior" or "all".
    """
    topics = _topics_present(pages, topic_order)

    def options(name: str, values: list[str]) -> str:
        items = "".join(f'<option value="{html.escape(v)}">{html.escape(v.capitalize())}</option>'
                        for v in values)
        return (f'<label>{name.capitalize()} <select data-filter="{name}">'
                f'<option value="">All</option>{items}</select></label>')

    sorts = "".join(f'<option value="{key}">{label}</option>' for key, label in SORTS)
    controls = (
        '<div class="question-filters" role="search" data-search-exclude="true">'
        '<label>Find <input type="search" data-filter="text" placeholder="Words in the question">'
        "</label>"
        + options("level", list(LEVELS)) + options("importance", list(IMPORTANCE))
        + options("topic", topics)
        + f'<label>Sort <select data-sort-by="">{sorts}</select></label>'
        + '<label class="needs-js">Your progress <select data-progress-filter="">'
        + "".join(f'<option value="{v}">{label}</option>' for v, label in PROGRESS_FILTER)
        + "</select></label>"
        + '<output class="question-count" aria-live="polite"></output></div>'
    )
    head = "".join(
        f'<th scope="col" aria-sort="none"><button type="button" data-sort="{key}">{label}'
        "</button></th>"
        for key, label in (("question", "Question"), ("level", "Level"),
                           ("importance", "Importance"), ("frequency", "Frequency (est.)"),
                           ("topic", "Topic")))
    head += '<th scope="col" class="progress-head needs-js">Your progress</th>'
    total = len(pages)
    rest = (f' data-rest="{ROWS_FILE}" data-total="{total}"' if total > FIRST_ROWS else "")
    table = (f'<table class="question-table"{rest}><thead><tr>{head}</tr></thead>'
             f"<tbody>{question_rows(pages, href, topic_order, 0, FIRST_ROWS)}</tbody></table>")
    if total > FIRST_ROWS:
        titles = topic_titles or {}
        by_topic = (" Each topic's page lists all of its questions: " + ", ".join(
            f'<a href="{html.escape(href(t + "/index"))}">{html.escape(titles.get(t, t))}</a>'
            for t in topics) + ".")
        table += (f'\n\n<p class="question-more">The table starts with the first {FIRST_ROWS} of '
                  f"{total} questions in learning order; filtering or sorting covers them all. "
                  f'<button type="button" class="needs-js" data-show-all="">Show all {total} '
                  f"questions</button>{by_topic}</p>")
    empty = ('<p class="question-empty" hidden>No question matches these filters. '
             '<button type="button" data-clear-filters="">Show every question</button></p>')
    # What progress.js says for a reader who has rated nothing yet; it rewrites it from their progress.
    first = learning_order(pages)[0] if pages else None
    line = ('<p class="progress-index-line needs-js">Due for review today: 0. '
            + (f'Next question: <a class="progress-next" href="{html.escape(href(first.page_id))}">'
               f"{html.escape(first.question)}</a>" if first else "") + "</p>")
    return line + "\n\n" + controls + "\n\n" + table + "\n\n" + empty


def learning_path(pages: list[Page], topic: str, from_id: str) -> str:
    """Markdown: the topic's questions grouped by level, in learning order."""
    lines: list[str] = []
    current = None
    number = 0
    for page in learning_order([p for p in pages if p.meta["topic"] == topic]):
        level = page.meta["level"]
        if level != current:
            lines += ["", f"### {level.capitalize()}", ""]
            current = level
        number += 1
        lines.append(f"{number}. [{page.question}]({_link(from_id, page.page_id)}) "
                     f"<small>{page.meta['importance']}, comes up "
                     f"{frequency_band(page.meta['frequency'])}</small>")
    return "\n".join(lines).strip("\n")


def order_nav_sections(items: list, topic_order: list[str], titles: dict[str, str]) -> list:
    """The top level of the navigation: pages first, then each topic's section in learning order
    (titled as the topic is), then any other section (the notebooks)."""

    def topic_of(item: object) -> str | None:
        for child in getattr(item, "children", None) or []:
            file = getattr(child, "file", None)
            if file is not None and "/" in file.src_uri:
                return file.src_uri.split("/")[0]
        return None

    def key(item: object) -> tuple[int, int]:
        if not getattr(item, "children", None):
            return (0, 0)
        topic = topic_of(item)
        if topic in topic_order:
            item.title = titles[topic]  # type: ignore[attr-defined]
            return (1, topic_order.index(topic))
        return (2, 0)

    return sorted(items, key=key)


def order_nav_children(children: list, order: list[str]) -> list:
    """Nav items of a topic in learning order: the topic's index first, then its questions."""
    rank = {uri: index for index, uri in enumerate(order)}

    def key(item: object) -> tuple[int, int]:
        file = getattr(item, "file", None)
        uri = file.src_uri if file is not None else ""
        if uri.endswith("index.md"):
            return (0, 0)
        return (1, rank.get(uri, len(rank)))

    return sorted(children, key=key)
