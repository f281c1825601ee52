"""A drill's page as Material Markdown: the task and the starter first, then the judge and how to
run it, then the hints one inside the other, then the solution, the mistakes and the follow-ups,
each folded shut until the reader opens it.

Everything that is code or a verdict comes from the drill's files and the engine's records, not
from the page: the starter, reference and mistakes are shown exactly as their files are, the
judge's tests are listed from the recorded verdict on the reference (the list the engine proved),
and each verdict is the snippet block of its record (`render_snippet`), with the provenance and
drift line every snippet on the site has.

The folds are HTML `<details>` (pymdownx.details), shut in the page as served: no script has to
run for the solution to be out of sight, and the browser's find-in-page opens a fold it finds text
in, which is the reader asking.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from question_pages.format.markers import SNIPPET_LINE
from question_pages.format.model import Page
from question_pages.render.snippet_blocks import fence, indent, render_snippet
from snippet_engine.execution.preview import PreviewFailure
from snippet_engine.records.record_file import read_record
from snippet_engine.records.status import StatusBook
from snippet_engine.source.discovery import Snippet

from .pages import DrillPage

_TEST_LINE = re.compile(r"^(?:PASS|FAIL|ERROR|TIME) +(?P<test>[a-z0-9_]+): (?P<says>.+)$")
SOLUTION_FILE = "solution.py"


def download_name(drill_id: str) -> str:
    """The reader's one-file download, written beside the drill's page."""
    return f"drill_{drill_id}.py"


def judged_tests(page: DrillPage, root: Path) -> list[tuple[str, str]]:
    """(test, what it checks) in the judge's order, as the recorded verdict on the reference
    prints them; the checks (proof.py) have made sure that record is current and complete."""
    snippet = page.drill.verdict_snippet("reference")
    rel = snippet.relative_to(root).as_posix()
    record = read_record(Snippet(snippet, rel).record_path("cpu"))
    found: dict[str, str] = {}
    for line in (record.output if record is not None else "").splitlines():
        match = _TEST_LINE.match(line)
        if match:
            found.setdefault(match["test"], match["says"])
    return [(test, found.get(test, "")) for test in page.drill.tests]


def _ref(path: Path, root: Path) -> str:
    """A snippet's reference as the snippet blocks take it: relative to snippets/."""
    return path.relative_to(root / "snippets").as_posix()


def _file_block(path: Path, root: Path, title: str | None = None) -> str:
    return fence(path.read_text(encoding="utf-8"), "python",
                 f'title="{title or path.relative_to(root).as_posix()}"')


def with_snippets(text: str, book: StatusBook,
                  preview: Mapping[str, PreviewFailure] | None = None) -> str:
    """`text` with each `{{ snippet("...") }}` line as the snippet's block (pages.py checks that
    each is a snippet of the drill's own folder)."""
    # A drill's snippets add no names to the search: they are its solution and judges.
    return "\n".join(render_snippet(match.group(1), book, preview, searched_names=False)
                     if (match := SNIPPET_LINE.match(line)) else line for line in text.split("\n"))


def _fold(kind: str, summary: str, body: str, css: str) -> str:
    """A shut pymdownx.details block with `body` (Markdown) inside."""
    summary = summary.replace('"', "&quot;")
    return f'??? {kind} {css} "{summary}"\n\n{indent(body)}\n'


def hints_block(hints: list[str]) -> str:
    """Each hint inside the one before: the second cannot be opened before the first."""
    body = ""
    for number in range(len(hints), 0, -1):
        inner = hints[number - 1] + ("\n\n" + body if body else "")
        body = _fold("tip", f"Hint {number} of {len(hints)}", inner, "drill-hint")
    return body


def tests_table(tests: list[tuple[str, str]]) -> str:
    rows = "\n".join(f"| `{test}` | {html.escape(says)} |" for test, says in tests)
    return f"| test | what must hold |\n|---|---|\n{rows}\n"


def metadata_line(page: DrillPage) -> str:
    return ('<div class="question-meta drill-meta" markdown>\n'
            f'<span class="qm qm-level qm-level-{page.level}">Level: {page.level.capitalize()}</span>\n'
            f'<span class="qm">Time: {page.minutes} minutes</span>\n'
            f'<span class="qm">Judge: {len(page.drill.tests)} tests, '
            f"{len(page.drill.mistakes)} mistakes it is proven to catch</span>\n"
            "</div>")


def timer_slot(page: DrillPage) -> str:
    """Where drill-practice.js puts a timer of the drill's minutes, by the starter. Empty in the
    HTML and hidden without JavaScript (`needs-js`); out of the search index."""
    return (f'<div class="drill-timer needs-js" data-minutes="{page.minutes}" '
            'data-search-exclude="true"></div>')


def rating_slot(page: DrillPage) -> str:
    """The reader's progress on the drill and, once the solution is open, its rating
    (drill-practice.js): the status line is in the HTML, so filling it in moves nothing."""
    return (f'<div class="drill-practice needs-js" data-question="{page.page_id}" '
            'data-search-exclude="true">'
            '<p class="practice-status" data-state="not-started">Your progress: Not started</p>'
            "</div>")


def questions_behind(drill_id: str, questions: Iterable[Page]) -> list[Page]:
    """The question pages that link to the drill, in page order: the drill links back to each, so
    that the two are linked both ways without a list kept by hand on either side."""
    link = re.compile(rf"(?:^|[(/\s])drills/{re.escape(drill_id)}\.md(?:#[\w-]*)?\)")

    def lines(q: Page) -> list[str]:
        return [line for _, line in q.preamble] + [
            line for s in q.sections for part in (s.body, *(sub.body for sub in s.subsections))
            for _, line in part]

    return sorted((q for q in questions if any(link.search(line) for line in lines(q))),
                  key=lambda q: q.page_id)


def questions_block(questions: list[Page]) -> str:
    rows = "\n".join(f"- [{q.question}](../{q.page_id}.md)" for q in questions)
    return f"## The questions behind it {{#questions}}\n\n{rows}\n" if rows else ""


def render_drill_page(page: DrillPage, root: Path, book: StatusBook,
                      preview: Mapping[str, PreviewFailure] | None = None,
                      behind: list[Page] | None = None) -> str:
    """The drill's page as Material Markdown; the page passed the checks (pages.py, proof.py).
    `behind`: the question pages that link to it (questions_behind), linked back at its end."""
    """The drill's page as Material Markdown; the page passed the checks (pages.py, proof.py)."""
    drill, source = page.drill, page.page
    name = download_name(drill.id)
    task = source.section("Task")
    explained = source.section("Explained")
    follow_ups = source.section("Follow-ups")
    red_flags = source.section("Red flags")
    assert task is not None and explained is not None and follow_ups is not None

    def verdict(role: str) -> str:
        return render_snippet(_ref(drill.verdict_snippet(role), root), book, preview,
                              searched_names=False)

    parts = [
        f"# {source.meta['title']}", "", metadata_line(page), "",
        "## Task {#task}", "", task.text, "",
        "Write it in the starter: its docstring is the whole contract.", "",
        _file_block(drill.starter, root, SOLUTION_FILE), "",
        timer_slot(page), "",
        "## Judge it on your machine {#judge data-search-exclude}", "",
        f'<p><a class="md-button drill-download" href="{name}" download>Download {name}</a> '
        "the starter and the judge in one file. Write your solution in its top part, then run</p>",
        "",
        fence(f"python {name}            # judges the solution in the file\n"
              f"python {name} mine.py    # or the one in mine.py", "bash"), "",
        "It needs torch and nothing else, and exits 0 only when every test passes. Each test "
        "prints PASS or FAIL with what was expected and what came (the largest difference), and "
        "the first failure prints a hint. The judge tests:", "",
        tests_table(judged_tests(page, root)),
        "The judge on the starter as it is, run by the site's build on the pinned torch:", "",
        verdict("starter"), "",
        "## Hints {#hints}", "",
        "Open one only when you are stuck; each opens the next.", "",
        hints_block(page.hints),
        "## Solution {#solution data-search-exclude}", "",
        "Try it first: the solution, the explanation and the follow-ups' answers are folded below.",
        "",
        _fold("success", "Show the solution",
              "\n\n".join([_file_block(drill.reference, root),
                           "The judge on it, run by the site's build:", verdict("reference"),
                           "**Said aloud:**", with_snippets(explained.text, book, preview)]),
              "drill-solution"),
        rating_slot(page), "",
        "## Mistakes the judge catches {#mistakes data-search-exclude}", "",
        "The wrong solutions candidates write most, each run through the judge by the build: each "
        "fails the test named. What each gets wrong says much of the solution, so they are "
        "folded too.", "",
    ]
    mistakes = [_fold("failure", f"{mistake.says} (fails {mistake.fails})",
                      "\n\n".join([_file_block(mistake.path, root),
                                   verdict(f"mistake_{mistake.name}")]), "drill-mistake")
                for mistake in drill.mistakes]
    parts.append(_fold("failure", f"Show the {len(mistakes)} mistakes", "\n".join(mistakes),
                       "drill-mistakes"))
    parts += ["## Follow-ups {#follow-ups}", ""]
    for sub in follow_ups.subsections:
        answer = "\n".join(line for _, line in sub.body[1:]).strip()
        parts.append(_fold("question", sub.title, with_snippets(answer, book, preview),
                           "drill-follow-up"))
    if red_flags is not None and red_flags.text:
        parts += ["## Red flags {#red-flags}", "",
                  _fold("danger", "What costs you the round (folded: it gives parts of the "
                        "solution away)", red_flags.text, "drill-red-flags")]
    if behind:
        parts += ["", questions_block(behind)]
    return "\n".join(parts) + "\n"


def drill_list(pages: list[DrillPage], from_uri: str) -> str:
    """The drills' index: one row per drill, linked (Markdown links to the sources)."""
    rows = [f"| [{p.title}]({p.id}.md) | {p.level} | {p.minutes} min | {len(p.drill.tests)} | "
            f"{len(p.drill.mistakes)} |" for p in sorted(pages, key=lambda p: p.id)]
    return ("| drill | level | time | tests | mistakes caught |\n|---|---|---|---|---|\n"
            + "\n".join(rows) + "\n") if rows else "No drill yet.\n"
