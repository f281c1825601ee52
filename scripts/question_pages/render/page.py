"""Turn a checked question page into the Material Markdown that MkDocs renders.

Contributors write plain sections; this adds the title and metadata, the computed speaking times,
tabs for the levels, collapsible follow-ups, the red-flag callout, each snippet with its recorded
outputs, and the related questions, with a fixed anchor on every section.
"""

from __future__ import annotations

import html
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from question_pages.format.markers import HELPER_LINE, SNIPPET_LINE
from question_pages.format.model import (
    ANCHORS,
    PAGE_STRIP,
    SECTION_TITLES,
    SPEAKING_TARGETS,
    WORD_RANGES,
    WORDS_PER_MINUTE,
    Page,
    Section,
    follow_up_anchors,
    frequency_band,
    speaking_seconds,
)
from question_pages.format.parse import words
from question_pages.format.ties import Tie
from question_pages.render.drift_reports import PAGE as DRIFT_PAGE
from question_pages.render.drift_reports import load_reports, snippet_notes
from question_pages.render.snippet_blocks import fence, indent, render_snippet
from question_pages.render.ties import marked_lines, ties_by_snippet
from question_pages.sitewide.downloads import question_notebook_uri
from snippet_engine.execution.preview import PreviewFailure
from snippet_engine.records.status import StatusBook

# Sections kept out of the site search: the sources are link lists and the related questions
# repeat other pages' titles (a search would find a page for what another page answers); neither
# is what a reader searches for.
UNSEARCHED = ("Sources",)

# How much a page's declared aliases count in the site search. They are a Pagefind metadata field,
# `aliases`, which search.js weighs like a title (`metaWeights`, ALIAS_META_WEIGHT there): a
# search for "DDP" then ranks the page whose subject is DDP above the pages whose title says "DDP"
# in passing. They are also in the page's indexed text, at ALIAS_WEIGHT (Pagefind's
# data-pagefind-weight, 0 to 10, quadratic), so that the result's excerpt shows the name matched.
ALIAS_WEIGHT = 8
ALIAS_META = "aliases"

IMPORTANCE_LABEL = {"must know": "Must know", "should know": "Should know",
                    "nice to know": "Nice to know"}


@dataclass(frozen=True)
class _Ties:
    """A page's ties as the rendering needs them: its lines with marks, the ties by snippet."""

    marks: Mapping[int, str] = field(default_factory=dict)
    by_snippet: Mapping[str, Sequence[Tie]] = field(default_factory=dict)


def _expand_snippets(lines: list[tuple[int, str]], root: Path, book: StatusBook,
                     preview: Mapping[str, PreviewFailure] | None = None,
                     page_id: str = "", ties: _Ties | None = None) -> str:
    ties = ties or _Ties()
    out = []
    reports = load_reports(root)
    link = posixpath.relpath(DRIFT_PAGE, posixpath.dirname(page_id) or ".")
    for number, line in lines:
        helper = HELPER_LINE.match(line)
        if helper:
            source = (root / "snippets" / helper.group(1)).read_text(encoding="utf-8")
            out.append('<section class="snippet" data-search-exclude="true" markdown>\n\n'
                       + fence(source, "python", f'title="snippets/{helper.group(1)}"')
                       + "\n\n</section>")
            continue
        match = SNIPPET_LINE.match(line)
        if not match:
            out.append(ties.marks.get(number, line))
            continue
        notes = snippet_notes(reports, f"snippets/{match.group(1)}", link)
        out.append(render_snippet(match.group(1), book, preview, notes,
                                  ties.by_snippet.get(match.group(1), ())))
    return "\n".join(out).strip("\n")


def metadata_block(page: Page) -> str:
    meta = page.meta
    level = meta["level"]
    return (
        '<div class="question-meta" markdown>\n'
        f'<span class="qm qm-level qm-level-{level}" title="Who is expected to answer it well">'
        f"Level: {level.capitalize()}</span>\n"
        f'<span class="qm qm-importance">{IMPORTANCE_LABEL[meta["importance"]]}</span>\n'
        f'<span class="qm qm-frequency" data-frequency="{meta["frequency"]}" '
        f'title="An editor\'s estimate, not a measurement: about {meta["frequency"]}%">'
        f"Comes up {frequency_band(meta['frequency'])} in {meta['topic']} interviews "
        "(editor's estimate)</span>\n"
        f'<span class="qm qm-topic">Topic: [{meta["topic"]}](index.md)</span>\n'
        "</div>"
    )


def search_aliases_block(page: Page) -> str:
    """The page's `search_aliases` for the site search only: an empty, hidden element whose
    attribute Pagefind takes as the `aliases` metadata field (`data-pagefind-meta`) and indexes
    with the page's text (`data-pagefind-index-attrs`) at ALIAS_WEIGHT (set on the parent:
    Pagefind weighs an attribute by the element around it). No text a reader sees or a screen
    reader reads. An empty string when the page declares none."""
    aliases = page.meta.get("search_aliases") or []
    if not aliases:
        return ""
    names = html.escape(", ".join(str(alias).strip() for alias in aliases), quote=True)
    return (f'<div class="search-aliases" hidden data-pagefind-weight="{ALIAS_WEIGHT}">'
            f'<span data-pagefind-meta="{ALIAS_META}[data-search-aliases]" '
            f'data-pagefind-index-attrs="data-search-aliases" '
            f'data-search-aliases="{names}"></span></div>')


def page_strip() -> str:
    """Links to the parts of the page, under its title: the follow-ups and red flags, which a
    candidate rehearses, are otherwise thousands of pixels down. Out of the search index: every
    page has the same words."""
    links = "".join(f'<a href="#{ANCHORS[title]}">{title}</a>' for title in PAGE_STRIP)
    return (f'<nav class="page-strip" aria-label="On this page" data-search-exclude="true">'
            f"{links}</nav>")


def practice_slot(page: Page) -> str:
    """The reader's progress and the button that starts the self-test (practice.js). In the HTML,
    so that filling them in moves nothing on the page; `needs-js` hides them when JavaScript is
    off (docs/overrides/main.html), and the page then reads as it always did."""
    return (f'<div class="practice-slot needs-js" data-question="{page.page_id}" '
            f'data-basics-seconds="{SPEAKING_TARGETS["Basics"]}" '
            f'data-solid-seconds="{SPEAKING_TARGETS["Solid answer"]}">'
            '<p class="practice-status" data-state="not-started">Your progress: Not started</p>'
            '<button type="button" class="md-button practice-start">Practise this question</button>'
            "</div>")


def speaking_note(title: str, text: str) -> str:
    count = words(text)
    target = f"about {SPEAKING_TARGETS[title]} s"
    return (f"Spoken: ~{speaking_seconds(count)} s ({count} words at {WORDS_PER_MINUTE} words "
            f"per minute; aim for {target})\n{{: .speaking-time }}")


BACKLINKS = 5


def related_block(page: Page, titles: dict[str, str], linked_from: Iterable[str] = ()) -> str:
    """The page's related questions: those it lists, then those that list it (`linked_from`), so
    that a link between two questions shows on both pages whichever one's front matter has it."""
    here = page.page_id.split("/")
    own = list(page.meta.get("related", []))
    # At most BACKLINKS of the pages that list this one: a page many others name would otherwise
    # carry a list (and a DOM) that grows with the bank (tests/browser/test_weight.py).
    back = sorted(set(linked_from) - set(own) - {page.page_id})[:BACKLINKS]
    items = []
    for item in own + back:
        target = item.split("/")
        rel = (target[-1] if target[:-1] == here[:-1] else "../" * (len(here) - 1) + item) + ".md"
        items.append(f"- [{titles.get(item, item)}]({rel})")
    return ("## Related questions {#related-questions data-search-exclude}\n\n"
            + unsearched("\n".join(items)))


def listed_by(pages: Iterable[Page]) -> dict[str, list[str]]:
    """{page id: the pages whose `related:` names it}, in page order."""
    found: dict[str, list[str]] = {}
    for page in sorted(pages, key=lambda p: p.page_id):
        for item in page.meta.get("related", []) or []:
            found.setdefault(item, []).append(page.page_id)
    return found


def unsearched(markdown: str) -> str:
    """A section's body kept out of the site search (site_search.py leaves out what is marked
    `data-search-exclude`; a mark on a heading covers only the heading)."""
    return f'<div data-search-exclude markdown>\n\n{markdown}\n\n</div>'


def follow_up_block(question: str, anchor: str, answer: str) -> str:
    """A follow-up, folded: a <details class="question"> as `??? question` renders it, written out
    so that it can carry its anchor (`follow_up_anchors`), which a guide links to and
    questions.json gives as the follow-up's URL. The question (Markdown) is its summary."""
    return (f'<details class="question" id="{anchor}" markdown="1">\n'
            f'<summary markdown="span">{question}</summary>\n\n{answer}\n\n</details>\n')


def explainer_block(section: Section, root: Path, book: StatusBook,
                    preview: Mapping[str, PreviewFailure] | None, page_id: str,
                    ties: _Ties | None = None) -> str:
    """The explainer, every section after the first folded in a <details> under its heading.

    The explainer is most of a page: folded, the follow-ups and red flags that a candidate
    rehearses come thousands of pixels sooner. It is folded in the HTML, not by a script, so it
    costs no layout work after load, works without JavaScript, and the browser's find-in-page
    opens a closed section it finds text in. Each heading stays outside its fold, with its anchor
    and its place in the table of contents; explainer.js opens the section a link points into."""
    out = [_expand_snippets(section.intro, root, book, preview, page_id, ties)]
    if len(section.subsections) > 1:
        out += ["", '<button type="button" class="explainer-all needs-js">Open every section of the '
                "explainer</button>"]
    for index, sub in enumerate(section.subsections):
        heading, body = f"### {sub.title}", sub.body  # a subsection's body starts after its heading
        text = _expand_snippets(body, root, book, preview, page_id, ties)
        if index == 0:
            out += ["", heading, text]
            continue
        prose = [line for _, line in body if not (SNIPPET_LINE.match(line) or HELPER_LINE.match(line))]
        code = " and code" if len(prose) < len(body) and any(
            SNIPPET_LINE.match(line) for _, line in body) else ""
        out += ["", heading, "",
                '<details class="explainer-fold" markdown="1">',
                f"<summary>Read this section ({words(chr(10).join(prose))} words{code})</summary>",
                "", text, "", "</details>"]
    return "\n".join(part for part in out if part is not None).strip("\n") + "\n"


def render_page(page: Page, root: Path, titles: dict[str, str], book: StatusBook | None = None,
                preview: Mapping[str, PreviewFailure] | None = None,
                linked_from: Iterable[str] = ()) -> str:
    """The page as Material Markdown. `book`: the snippet statuses its checks read (a new reading
    when not given); `preview` holds a live preview's failed runs, shown in place of their
    snippets' records."""
    book = book or StatusBook(root)
    ties = _Ties(marked_lines(page, book), ties_by_snippet(page))
    parts = [f"# {page.question}", "", search_aliases_block(page), "", metadata_block(page), "",
             page_strip(), "", practice_slot(page), ""]
    for title in SECTION_TITLES:
        section = page.section(title)
        assert section is not None, "render only pages that passed validation"
        searched = "" if title not in UNSEARCHED else " data-search-exclude"
        parts.append(f"## {title} {{#{ANCHORS[title]}{searched}}}\n")
        if title in WORD_RANGES:
            parts.append(speaking_note(title, section.text) + "\n")
        if title == "Go deeper":
            for sub in section.subsections:
                body = indent(_expand_snippets(sub.body, root, book, preview, page.page_id, ties))
                parts.append(f'=== "{sub.title}"\n\n{body}\n')
        elif title == "Follow-ups":
            anchors = follow_up_anchors([sub.title for sub in section.subsections])
            for sub, anchor in zip(section.subsections, anchors, strict=True):
                answer = _expand_snippets(sub.body, root, book, preview, page.page_id, ties)
                parts.append(follow_up_block(sub.title, anchor, answer))
        elif title == "Explainer":
            parts.append(explainer_block(section, root, book, preview, page.page_id, ties))
        elif title == "Red flags":
            flags = "\n".join(ties.marks.get(number, line) for number, line in section.body)
            parts.append('!!! danger "Saying these costs you the question"\n\n'
                         f"{indent(flags.strip())}\n")
        elif title in UNSEARCHED:  # the heading's mark covers the heading only
            parts.append(unsearched(_expand_snippets(section.body, root, book, preview,
                                                     page.page_id, ties)) + "\n")
        else:
            parts.append(_expand_snippets(section.body, root, book, preview, page.page_id, ties)
                         + "\n")
            if title == "Code":
                parts.append(notebook_link(page) + "\n")
    back = list(linked_from)
    if page.meta.get("related") or back:
        parts.append(related_block(page, titles, back))
    return "\n".join(parts) + "\n"


def notebook_link(page: Page) -> str:
    """The line under a page's Code section that offers its notebook as a download; the link is
    relative to the page's source, as MkDocs resolves it."""
    href = posixpath.relpath(question_notebook_uri(page.page_id),
                             posixpath.dirname(page.page_id) or ".")
    return (f"Run this question's code: [download the notebook]({href}){{: download }} (every "
            "snippet of this page in order, with its recorded output; Run All works in an empty "
            "folder).")
