"""The markers a page may hold, each alone on its line: their syntax, and reading them out of a
page. What each expands to is `question_pages.render.expand`; CONTRIBUTING.md lists them.

On a question page:

- `{{ snippet("topic/name.py") }}`: a snippet with its recorded outputs (rendered by
  `snippet_blocks`, in the sections of SNIPPET_SECTIONS);
- `{{ helper("topic/_name.py") }}`: a helper module the snippets import, shown exactly as the
  file is (never a hand-made copy that can drift from it).

On any other docs page, `MARKER`: `question_table`, `learning_path("topic")`, `topic_list`,
`include_file("PATH")`, `drift_report`, `progress("...")`, `downloads` and `drill_list` (see
`render.expand`).
"""

from __future__ import annotations

import re

from question_pages.format.model import Page

SNIPPET_LINE = re.compile(r"^\s*\{\{\s*snippet\(\s*\"([^\"]+)\"\s*\)\s*\}\}\s*$")
HELPER_LINE = re.compile(r"^\s*\{\{\s*helper\(\s*\"([^\"]+)\"\s*\)\s*\}\}\s*$")
SNIPPET_ATTEMPT = re.compile(r"\{\{\s*(snippet|helper)\b")

MARKER = re.compile(
    r"^\{\{\s*(?:(?P<table>question_table)|(?P<topics>topic_list)|(?P<drift>drift_report)"
    r"|learning_path\(\s*\"(?P<path>\w[\w-]*)\"\s*\)"
    r"|include_file\(\s*\"(?P<include>[\w./-]+)\"\s*\)"
    r"|progress\(\s*\"(?P<progress>summary|ratings|plan|transfer|mock)\"\s*\)|(?P<downloads>downloads)|(?P<drills>drill_list))"
    r"\s*\}\}[ \t]*$", re.MULTILINE)


def snippet_refs(page: Page) -> list[tuple[int, str, str]]:
    """(line, snippet path under snippets/, section title) for every snippet line of the page."""
    refs = []
    for section in page.sections:
        for number, line in section.body:
            match = SNIPPET_LINE.match(line)
            if match:
                refs.append((number, match.group(1), section.title))
    return refs


def helper_refs(page: Page) -> list[tuple[int, str, str]]:
    """(line, helper path under snippets/, section title) for every helper line of the page."""
    return [(number, match.group(1), section.title)
            for section in page.sections for number, line in section.body
            if (match := HELPER_LINE.match(line))]


def learning_path_topics(markdown: str) -> list[str]:
    """The topics whose learning path a page shows."""
    return [m.group("path") for m in MARKER.finditer(markdown) if m.group("path")]
