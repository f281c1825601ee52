"""What the markers of a page outside the questions expand to (their syntax is
`question_pages.format.markers`). CONTRIBUTING.md lists them.

On a question page:

- `{{ snippet("topic/name.py") }}`: a snippet with its recorded outputs (rendered by
  `snippet_blocks`, in the sections of SNIPPET_SECTIONS);
- `{{ helper("topic/_name.py") }}`: a helper module the snippets import, shown exactly as the
  file is (never a hand-made copy that can drift from it).

On any other docs page:

- `{{ question_table }}`: the filterable index of every question (docs/questions.md): its first
  rows, and the rest in a file beside the page (`files_beside`);
- `{{ learning_path("topic") }}`: a topic's questions, junior to principal, and its notebook;
- `{{ topic_list }}`: every topic in learning order, with its index page and notebook (home page);
- `{{ include_file("PATH") }}`: a repository file shown on the site (CONTRIBUTING.md);
- `{{ drift_report }}`: what changes on each torch compared by a committed drift report;
- `{{ progress("summary") }}`, `{{ progress("ratings") }}`, `{{ progress("plan") }}`,
  `{{ progress("transfer") }}`: the reader's progress per topic and level with the next question,
  every rated question with its follow-ups' ratings under it, a study plan, and export, import
  and clearing of progress (filled in the browser by progress.js and study.js, from the list of
  questions the marker embeds); `{{ progress("mock") }}`: the mock interview (mock.js, which its
  page loads itself);
- `{{ drill_list }}`: every coding drill with its level, time and judge (docs/drills/index.md;
  the caller gives it, rendered by question_pages.drills.render.drill_list);
- `{{ downloads }}`: links to the Anki decks and TSV files of the whole site and of each topic, and
  to questions.json with its schema (files the build writes after MkDocs checks links, so these
  are raw links, checked by the browser tests' link check).

Links in the expansion are relative Markdown links to source files, which MkDocs checks and
rewrites, except in the question table: it is raw HTML, so the caller gives each final URL.
"""

from __future__ import annotations

import html
import json
import math
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from question_pages.format.markers import MARKER
from question_pages.format.model import SPEAKING_TARGETS, Page, speaking_seconds
from question_pages.format.parse import words
from question_pages.format.topics import Topic
from question_pages.render.drift_reports import cpu_snippets, load_reports
from question_pages.render.drift_reports import render_page as render_drift
from question_pages.render.drift_ties import broken_ties, render_section
from question_pages.sitewide.catalog import (
    FIRST_ROWS,
    ROWS_FILE,
    learning_order,
    learning_path,
    question_rows,
    question_table,
)
from question_pages.sitewide.downloads import INDEX_URI, SCHEMA_URI, deck_files
from question_pages.sitewide.licences import CODE, CONTENT

PROGRESS_FALLBACK = {
    "summary": "Your progress is kept in this browser and shown here when JavaScript is on.",
    "ratings": "Your ratings are kept in this browser and listed here when JavaScript is on.",
    "plan": "The study plan is made in this browser when JavaScript is on.",
    "transfer": "Exporting and importing your progress needs JavaScript.",
    "mock": "The mock interview runs in this browser and needs JavaScript.",
}



def _link(from_uri: str, to_uri: str) -> str:
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")


def topic_list(topics: list[Topic], from_uri: str) -> str:
    lines = [f"- [{topic.title}]({_link(from_uri, topic.index_uri)}): its questions in the order "
             f"to learn them, and [a notebook]({_link(from_uri, topic.notebook_uri)}) of every "
             "snippet with its recorded output"
             for topic in topics]
    return "\n".join(lines)


def notebook_note(topic: Topic, from_uri: str) -> str:
    return ("The snippets of every page are also in a notebook with their recorded outputs: "
            f"[download and run it]({_link(from_uri, topic.notebook_uri)}).")


CHECK_AND_RATE_SECONDS = 30  # revealing the short answer, ticking it off and rating


def practice_minutes(page: Page) -> int:
    """Minutes a self-test of the question takes, for the study plan: its spoken answers (basics
    and solid answer) and every follow-up's answer, said at the speaking rate the pages show,
    plus half a minute to check and rate; rounded up, at least one."""
    spoken = sum(words(section.text) for title in ("Basics", "Solid answer")
                 if (section := page.section(title)) is not None)
    follow_ups = page.section("Follow-ups")
    if follow_ups is not None:
        spoken += sum(words(sub.text) for sub in follow_ups.subsections)
    return max(1, math.ceil((speaking_seconds(spoken) + CHECK_AND_RATE_SECONDS) / 60))


READING_WORDS_PER_MINUTE = 200  # a first, careful read of technical prose and code


def reading_minutes(page: Page) -> int:
    """Minutes a first read of the question's page takes, for the study plan beside the speaking
    time: the words of every section (prose, code and follow-ups, as a reader meets them) at 200
    words a minute; rounded up, at least one."""
    return max(1, math.ceil(sum(words(section.text) for section in page.sections) / READING_WORDS_PER_MINUTE))


DRILLS_TOPIC = ("drills", "Coding drills")  # the progress tools' group for the drills


@dataclass(frozen=True)
class ListedDrill:
    """A drill as the progress tools list it: what the drills package knows of a drill page,
    passed down as plain values (render sits below the drills package)."""

    id: str  # drills/<id>, the id its rating is saved under
    title: str
    level: str
    minutes: int


def question_list(pages: list[Page], topics: list[Topic], href: Callable[[str], str],
                  drills: list[ListedDrill] | None = None) -> str:
    """Every question in learning order, then every drill, as the JSON the progress tools read
    (no request). A drill is rated on its page into the same progress and schedule, so the
    summary, what is due, the next question and the plan count it, in a group of its own
    (`kind: "drill"`); it has no frequency estimate (0) and its own minutes. The mock interview's
    list leaves the drills out: its rounds are spoken (progress_tool)."""
    titles = {topic.id: topic.title for topic in topics}
    rank = {topic.id: index for index, topic in enumerate(topics)}
    items = [{"id": p.page_id, "question": p.question, "url": href(p.page_id),
              "topic": p.meta["topic"], "topic_title": titles.get(p.meta["topic"], p.meta["topic"]),
              "topic_rank": rank.get(p.meta["topic"], len(rank)),
              "level": p.meta["level"], "importance": p.meta["importance"],
              "frequency": p.meta["frequency"], "minutes": practice_minutes(p),
              "read_minutes": reading_minutes(p)}
             for p in learning_order(pages)]
    items += drill_items(drills or [], href, len(rank))
    return _as_script_json(items)


def drill_items(drills: list[ListedDrill], href: Callable[[str], str], rank: int) -> list[dict]:
    """The drills as the progress tools list them, after the topics (`rank`)."""
    return [{"id": d.id, "question": d.title, "url": href(d.id), "topic": DRILLS_TOPIC[0],
             "topic_title": DRILLS_TOPIC[1], "topic_rank": rank, "level": d.level,
             "importance": "should know", "frequency": 0, "minutes": d.minutes, "kind": "drill"}
            for d in drills]


def _as_script_json(items: list[dict]) -> str:
    # "</" cannot end the script element from inside a string.
    return json.dumps(items, ensure_ascii=False).replace("</", "<\\/")


def progress_tool(kind: str, pages: list[Page], topics: list[Topic],
                  href: Callable[[str], str], drills: list[ListedDrill] | None = None) -> str:
    # The mock interview times answers against the pages' speaking targets (mock.js).
    targets = (f' data-basics-seconds="{SPEAKING_TARGETS["Basics"]}"'
               f' data-solid-seconds="{SPEAKING_TARGETS["Solid answer"]}"') if kind == "mock" else ""
    return (f'<div class="progress-tool" data-progress-tool="{kind}"{targets} data-search-exclude="true">'
            f'<p class="progress-fallback">{PROGRESS_FALLBACK[kind]}</p>'
            f'<script type="application/json" class="question-list">'
            f"{question_list(pages, topics, href, None if kind == 'mock' else drills)}"
            f"</script>{drill_list_script(drills, href) if kind == 'mock' else ''}"
            "</div>")


def drill_list_script(drills: list[ListedDrill] | None, href: Callable[[str], str]) -> str:
    """The drills alone, for the mock interview's coding round (mock-coding.js)."""
    return (f'<script type="application/json" class="drill-list">'
            f"{_as_script_json(drill_items(drills or [], href, 0))}</script>")


def downloads(topics: list[Topic], file_href: Callable[[str], str]) -> str:
    """Raw HTML links to every deck, TSV and the question index; `file_href(site path)` is the
    URL of a file of the built site relative to the page."""
    files = deck_files(topic.id for topic in topics)

    def links(kind: str) -> str:
        every = f'<a href="{html.escape(file_href(files[""][kind]))}" download>every question</a>'
        each = ", ".join(f'<a href="{html.escape(file_href(files[t.id][kind]))}" download>'
                         f"{html.escape(t.title)}</a>" for t in topics)
        return f"{every}, or one topic: {each}"

    return ("<ul>\n"
            f"<li>Anki decks, a card per question and per follow-up: {links('apkg')}. The deck "
            "of every question ends with a card per coding drill (its task; its reference "
            "solution and explanation). Importing a "
            "newer deck updates the cards you already have, with their review history.</li>\n"
            "<li>The same cards as tab-separated text, for other flashcard apps: "
            f"{links('tsv')}.</li>\n"
            "<li>Every question with its answers (as text and as HTML), level, tags and "
            "snippets (their code and recorded output), for guide authors and tools: "
            f'<a href="{html.escape(file_href(INDEX_URI))}">{INDEX_URI}</a>, '
            f'described by <a href="{html.escape(file_href(SCHEMA_URI))}">its JSON Schema</a>.'
            "</li>\n</ul>\n"
            f'<p>You may reuse the questions and answers under <a href="{CONTENT.url}">'
            f"{CONTENT.short}</a>, crediting this site with a link to the page, and the code "
            f'under <a href="{CODE.url}">{CODE.short}</a>.</p>')


def files_beside(markdown: str, *, pages: list[Page], topics: list[Topic],
                 href: Callable[[str], str]) -> dict[str, str]:
    """Files a page's markers need written beside it in the built site, by name: the question
    table's rows after its first ones, which questions.js fetches when the reader needs them."""
    files = {}
    for match in MARKER.finditer(markdown):
        if match.group("table") and len(pages) > FIRST_ROWS:
            files[ROWS_FILE] = question_rows(pages, href, [t.id for t in topics], FIRST_ROWS) + "\n"
    return files


def expand(markdown: str, *, from_uri: str, root: Path, pages: list[Page], topics: list[Topic],
           href: Callable[[str], str], file_href: Callable[[str], str] | None = None,
           drill_list: str | None = None, drills: list[ListedDrill] | None = None) -> str:
    """`markdown` with every marker replaced; `href(page_id)` is a question's final URL,
    `file_href(path)` that of a file the build writes (needed only by `{{ downloads }}`),
    `drill_list` the drills' list (needed only by `{{ drill_list }}`)."""
    by_id = {topic.id: topic for topic in topics}
    order = [topic.id for topic in topics]

    def replace(match: re.Match) -> str:
        if match.group("table"):
            return question_table(pages, href, order, {t.id: t.title for t in topics})
        if match.group("topics"):
            return topic_list(topics, from_uri)
        if match.group("drift"):
            links = {page.page_id + ".md": f"[{page.question}]({_link(from_uri, page.page_id + '.md')})"
                     for page in pages}
            reports = load_reports(root)
            sentences = {report.version: render_section(broken_ties(pages, root, report),
                                                        report.version) for report in reports}
            return render_drift(reports, links, cpu_snippets(root), sentences)
        if match.group("downloads"):
            if file_href is None:
                raise ValueError("the downloads marker needs file_href")
            return downloads(topics, file_href)
        if match.group("drills"):
            if drill_list is None:
                raise ValueError("the drill_list marker needs drill_list")
            return drill_list
        if match.group("progress"):
            return progress_tool(match.group("progress"), pages, topics, href, drills)
        if match.group("include"):
            return (root / match.group("include")).read_text(encoding="utf-8")
        topic_id = match.group("path")
        path = learning_path(pages, topic_id, from_uri.removesuffix(".md"))
        topic = by_id.get(topic_id)
        # Out of the site search: the list repeats the questions' titles (search finds each on its
        # own page; listed here, the topic page outranked the answer for the words of a title).
        return ('<div class="learning-path" data-search-exclude markdown>\n\n' + path
                + ("\n\n" + notebook_note(topic, from_uri) if topic else "") + "\n\n</div>")

    return MARKER.sub(replace, markdown)


