"""Every rule of the page format: a broken page gets file, line, what is wrong and how to fix it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from question_pages.format.loading import load_pages
from question_pages.format.model import PageError
from site_fixture import FIXTURES, build

GOOD = (FIXTURES / "good-page.md").read_text()
REL = "docs/export/good-page.md"


def page_errors_for(root: Path, text: str) -> list[PageError]:
    page = root / "docs" / "export" / "good-page.md"
    page.write_text(text)
    try:
        _, errors = load_pages(root)
    finally:
        page.write_text(GOOD)
    return errors


def errors_for(root: Path, text: str) -> list[str]:
    return [str(e) for e in page_errors_for(root, text)]


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle) + 1


def test_the_fixture_pages_are_valid(site_source: Path) -> None:
    assert errors_for(site_source, GOOD) == []


CASES = [
    # (name, mutate, line marker or None for "any line", fragment)
    ("unknown level", lambda t: t.replace("level: middle", "level: expert"),
     "level: expert", "unknown level 'expert'. Use one of: junior, middle, senior, principal"),
    ("unknown importance", lambda t: t.replace("importance: should know", "importance: vital"),
     "importance: vital", "unknown importance 'vital'"),
    ("frequency out of range", lambda t: t.replace("frequency: 40", "frequency: 140"),
     "frequency: 140", "frequency '140' is out of range"),
    ("frequency not a number", lambda t: t.replace("frequency: 40", "frequency: often"),
     "frequency: often", "frequency 'often' is not a whole number"),
    ("question without ?", lambda t: t.replace("why does it matter?", "why does it matter"),
     None, "the question must be text ending in '?'"),
    ("missing field", lambda t: t.replace("importance: should know\n", ""),
     None, "the front matter lacks 'importance'"),
    ("unknown field", lambda t: t.replace("level: middle", "level: middle\ndifficulty: 3"),
     "difficulty: 3", "unknown front matter field 'difficulty'"),
    ("topic mismatch", lambda t: t.replace("topic: export", "topic: compile"),
     "topic: compile", "does not match the folder docs/export/"),
    ("related does not exist", lambda t: t.replace("[export/other-page]", "[export/nope]"),
     "related: [export/nope]", "related question 'export/nope' does not exist"),
    ("missing section", lambda t: t.replace("## Follow-ups", "## Questions"),
     "## Questions", "unknown section '## Questions'"),
    ("section missing entirely",
     lambda t: t[:t.index("## Red flags")] + t[t.index("## Sources"):],
     "## Sources", "section '## Red flags' is missing"),
    ("misplaced section",
     lambda t: t.replace("## Basics", "## Tmp").replace("## Solid answer", "## Basics")
                .replace("## Tmp", "## Solid answer"),
     None, "is out of place"),
    ("own title", lambda t: t.replace("## Short answer", "# A title\n\n## Short answer"),
     "# A title", "the page has its own '# ' title"),
    ("too many bullets", lambda t: t.replace("- it prints a tensor", "- a\n- b\n- c\n- d\n- e"),
     "## Short answer", "the short answer has 6 bullets"),
    ("basics too long", lambda t: t.replace("That is the whole point", " ".join(["word"] * 60)),
     "## Basics", "'Basics' has"),
    ("go deeper levels", lambda t: t.replace("### Senior", "### Staff"),
     "## Go deeper", "'Go deeper' has subsections"),
    ("snippet does not exist", lambda t: t.replace("export/fixture_tensor.py", "export/nope.py"),
     '{{ snippet("export/nope.py") }}', "snippet 'export/nope.py' does not exist"),
    ("malformed snippet line", lambda t: t.replace('{{ snippet("export/fixture_tensor.py") }}',
                                                   "{{ snippet(export/fixture_tensor.py) }}"),
     "{{ snippet(export/fixture_tensor.py) }}", "malformed snippet line"),
    ("helper does not exist", lambda t: t.replace('{{ snippet("export/fixture_tensor.py") }}',
                                                  '{{ helper("export/_nope.py") }}'),
     '{{ helper("export/_nope.py") }}', "helper 'export/_nope.py' does not exist"),
    ("malformed helper line", lambda t: t.replace('{{ snippet("export/fixture_tensor.py") }}',
                                                  "{{ helper(export/_nope.py) }}"),
     "{{ helper(export/_nope.py) }}", "malformed helper line"),
    ("no snippet in code", lambda t: t.replace('{{ snippet("export/fixture_tensor.py") }}', "x"),
     "## Code", "the code section shows no snippet"),
    ("follow-up not a question", lambda t: t.replace("### Is the output ever typed by hand?",
                                                     "### Typed by hand"),
     "### Typed by hand", "is not a question"),
    ("red flag without link", lambda t: t.replace("see [why](#why-escaping-matters)", "see below"),
     None, "does not link to where it is shown wrong"),
    ("broken in-page anchor", lambda t: t.replace("(#basics)", "(#basic)"),
     None, "link to '#basic', which is not on this page"),
    ("broken page link", lambda t: t.replace("[Back to basics](#basics)", "[x](missing.md)"),
     None, "link to 'missing.md', which does not exist"),
    ("placeholder left", lambda t: t.replace(
        "Know that the output is real. [[out export/fixture_tensor.py: /tensor\\(\\[/]]", "TODO"),
     "TODO", "unfinished placeholder"),
    ("bad yaml", lambda t: t.replace("tags: [fixture, testing]", "tags: [fixture, testing"),
     None, "not valid YAML"),
    ("search aliases not a list",
     lambda t: t.replace("tags: [fixture, testing]\n", "tags: [fixture, testing]\nsearch_aliases: DDP\n"),
     "search_aliases: DDP", "search_aliases must be a non-empty list of names"),
    ("search aliases empty",
     lambda t: t.replace("tags: [fixture, testing]\n", "tags: [fixture, testing]\nsearch_aliases: []\n"),
     "search_aliases: []", "search_aliases must be a non-empty list of names"),
    ("search alias twice",
     lambda t: t.replace("tags: [fixture, testing]\n",
                         "tags: [fixture, testing]\nsearch_aliases: [DDP, ddp]\n"),
     "search_aliases: [DDP, ddp]", "search alias 'ddp' is given twice"),
    ("search aliases a keyword list",
     lambda t: t.replace("tags: [fixture, testing]\n",
                         "tags: [fixture, testing]\nsearch_aliases: [a, b, c, d, e, f, g]\n"),
     "search_aliases: [a, b, c, d, e, f, g]", "search_aliases has 7 names (at most 6)"),
    ("search alias a sentence",
     lambda t: t.replace("tags: [fixture, testing]\n",
                         "tags: [fixture, testing]\nsearch_aliases: [" + "word " * 10 + "]\n"),
     "search_aliases: [" + "word " * 10 + "]", "is not a name"),
]


@pytest.mark.parametrize(("name", "mutate", "marker", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_each_rule_reports_file_line_what_and_fix(site_source: Path, name, mutate, marker,
                                                  fragment) -> None:
    broken = mutate(GOOD)
    assert broken != GOOD, f"the mutation for '{name}' changed nothing"
    errors = page_errors_for(site_source, broken)
    matching = [e for e in errors if fragment in str(e)]
    assert matching, f"no error containing {fragment!r} in {[str(e) for e in errors]}"
    error = matching[0]
    assert error.rel == REL
    if marker is not None:
        assert error.line == line_of(broken, marker), str(error)
    # What is wrong, then how to fix it: two different, non-empty sentences.
    assert error.what.strip() and error.fix.strip() and error.fix != error.what, str(error)


def test_search_aliases_are_optional_and_valid_when_given(site_source: Path) -> None:
    with_aliases = GOOD.replace("tags: [fixture, testing]\n",
                                "tags: [fixture, testing]\nsearch_aliases: [FX, Fixture page]\n")
    assert errors_for(site_source, with_aliases) == []


def test_stale_record_is_an_error(site_source: Path) -> None:
    snippet = site_source / "snippets" / "export" / "fixture_tensor.py"
    original = snippet.read_text()
    snippet.write_text(original + "# edited\n")
    try:
        errors = errors_for(site_source, GOOD)
    finally:
        snippet.write_text(original)
    assert any("the CPU record of snippets/export/fixture_tensor.py is stale" in e
               and "python scripts/snippets.py run snippets/export/fixture_tensor.py" in e
               for e in errors), errors


def test_a_broken_page_fails_the_build(site_source: Path, tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(site_source, copy, ignore=shutil.ignore_patterns("site", ".cache"))
    page = copy / "docs" / "export" / "good-page.md"
    page.write_text(GOOD.replace("level: middle", "level: wizard"))
    done = build(copy)
    assert done.returncode != 0
    assert "docs/export/good-page.md:3: unknown level 'wizard'" in done.stderr
