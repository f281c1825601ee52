"""Tags group questions: every tag a page uses is declared in docs/tags.yml, and every declared
tag names two pages or more (or says why it names one). Each broken rule gets file, line, what is
wrong and how to fix it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from helpers import ROOT
from question_pages.format.model import Page
from question_pages.format.parse import parse_page
from question_pages.format.tag_rules import close_tags, load_tags, tag_errors, tag_slug
from question_pages.site_checks import check_site

PAGE = """---
question: "What does page {name} ask?"
level: junior
importance: must know
frequency: 50
topic: export
tags: {tags}
related: []
---

## Short answer
"""
TAGS_LINE = 7  # of PAGE
DECLARED = """# a comment line, as the real file has
- name: Dynamic shapes
  description: Symbolic sizes.
- name: Graph breaks
  description: Where a graph stops.
- name: Custom operators
  description: Opaque code as an operator.
  single: only one page shows it yet
"""
# The line of each entry's '- name:' in DECLARED.
LINES = {"Dynamic shapes": 2, "Graph breaks": 4, "Custom operators": 6}


def mini_site(root: Path, pages: dict[str, str], declared: str = DECLARED) -> list[Page]:
    """docs/tags.yml and one page per entry of `pages` (name: its `tags:` value), parsed."""
    docs = root / "docs"
    (docs / "export").mkdir(parents=True, exist_ok=True)
    (docs / "tags.yml").write_text(declared)
    parsed = []
    for name, tags in pages.items():
        path = docs / "export" / f"{name}.md"
        path.write_text(PAGE.format(name=name, tags=tags))
        parsed.append(parse_page(path, docs))
    return parsed


def problems(root: Path, pages: list[Page], complete: bool = True) -> list[str]:
    return [str(e) for e in tag_errors(root, root / "docs", pages, complete=complete)]


GOOD_PAGES = {"a": "[Dynamic shapes, Graph breaks]", "b": "[Dynamic shapes, Graph breaks]",
              "c": "[Custom operators]"}


def test_a_site_whose_tags_group_pages_passes(tmp_path: Path) -> None:
    assert problems(tmp_path, mini_site(tmp_path, GOOD_PAGES)) == []


def test_the_repository_declares_the_tags_in_their_file_order() -> None:
    tags, errors = load_tags(ROOT, ROOT / "docs")
    assert errors == []
    text = (ROOT / "docs" / "tags.yml").read_text().split("\n")
    assert [text[tag.line - 1] for tag in tags] == [f"- name: {tag.name}" for tag in tags]
    assert all(tag.description and tag.description.endswith(".") for tag in tags)


def test_an_undeclared_tag_is_reported_at_the_tags_line_with_the_close_declared_tags(
        tmp_path: Path) -> None:
    pages = mini_site(tmp_path, {**GOOD_PAGES, "b": "[dynamic_shapes, Graph breaks]",
                                 "d": "[Dynamic shapes, recompiles]"})
    found = problems(tmp_path, pages)
    assert f"docs/export/b.md:{TAGS_LINE}: tag 'dynamic_shapes' is not declared in docs/tags.yml. " \
           "Use the declared tag 'Dynamic shapes'" in "\n".join(found), found
    # 'b' no longer uses 'Dynamic shapes', but 'd' does: the count stays honest about both.
    assert not any("names one page only" in e for e in found), found


def test_an_undeclared_tag_with_nothing_close_points_to_the_list(tmp_path: Path) -> None:
    pages = mini_site(tmp_path, {**GOOD_PAGES, "c": "[Custom operators, pytree]"})
    [error] = problems(tmp_path, pages)
    assert error.startswith(f"docs/export/c.md:{TAGS_LINE}: tag 'pytree' is not declared in "
                            "docs/tags.yml. Use a tag declared in docs/tags.yml")
    assert "'- name:' entry" in error  # how to add a real new concept


def test_a_tag_on_one_page_without_a_reason_is_reported_at_its_entry(tmp_path: Path) -> None:
    pages = mini_site(tmp_path, {**GOOD_PAGES, "b": "[Dynamic shapes]"})
    assert problems(tmp_path, pages) == [
        f"docs/tags.yml:{LINES['Graph breaks']}: tag 'Graph breaks' names one page only "
        "(docs/export/a.md), so it groups nothing. Add it to the other questions it fits; or tag "
        "that page with a broader declared tag and remove this entry; or, if a reader does browse "
        "by it, say why in a 'single: <reason>' line of the entry"]


def test_a_single_reason_allows_one_page_and_only_one_page_needs_it(tmp_path: Path) -> None:
    # 'Custom operators' has a reason and names one page (GOOD_PAGES): no error; given a
    # second page it is still fine, and without the reason the same single page is an error.
    assert problems(tmp_path, mini_site(tmp_path, {**GOOD_PAGES, "d": "[Custom operators]"})) == []
    undeclared_reason = DECLARED.replace("  single: only one page shows it yet\n", "")
    found = problems(tmp_path, mini_site(tmp_path, GOOD_PAGES, undeclared_reason))
    assert [e.split(":")[:2] for e in found] == [["docs/tags.yml", str(LINES["Custom operators"])]]


def test_a_declared_tag_no_page_uses_is_reported_at_its_entry(tmp_path: Path) -> None:
    pages = mini_site(tmp_path, {**GOOD_PAGES, "c": "[Dynamic shapes]"})
    assert problems(tmp_path, pages) == [
        f"docs/tags.yml:{LINES['Custom operators']}: tag 'Custom operators' is declared but no "
        "page uses it. Add it to the 'tags:' of the questions it groups, or remove its entry"]


def test_counts_are_not_judged_while_a_page_could_not_be_read(tmp_path: Path) -> None:
    pages = mini_site(tmp_path, {"a": "[Dynamic shapes, Graph breaks]"})
    assert len(problems(tmp_path, pages)) == 3  # two tags on one page, 'Custom operators' on none
    assert problems(tmp_path, pages, complete=False) == []


def test_check_site_reports_tag_errors_except_those_an_unreadable_page_causes(
        site_source: Path, tmp_path: Path) -> None:
    """Through check_site, on the fixture site (good-page: [fixture, testing], other-page:
    [fixture]). A page whose front matter is broken is the only problem of the pages and tags,
    although without it 'fixture' names one page and 'testing' none."""
    copy = tmp_path / "repo"
    shutil.copytree(site_source, copy, ignore=shutil.ignore_patterns("site", ".cache"))
    page = copy / "docs" / "export" / "good-page.md"
    good = page.read_text()

    def page_and_tag_errors() -> list[str]:
        return [str(e) for e in check_site(copy).errors
                if e.rel == "docs/tags.yml" or e.rel.startswith("docs/export/")]

    assert page_and_tag_errors() == []
    page.write_text(good.replace("tags: [fixture, testing]", "tags: [fixture, testing, fixtures]"))
    assert page_and_tag_errors() == [
        f"docs/export/good-page.md:{good.split(chr(10)).index('tags: [fixture, testing]') + 1}: "
        "tag 'fixtures' is not declared in docs/tags.yml. Use the declared tag 'fixture' "
        "(docs/tags.yml lists them all with what each groups); a new concept that groups several "
        "questions gets a '- name:' entry there, with its description"]
    page.write_text(good.replace("level: middle", "level: [middle"))  # the YAML breaks
    errors = page_and_tag_errors()
    assert len(errors) == 1 and errors[0].startswith("docs/export/good-page.md:"), errors
    assert "not valid YAML" in errors[0]


def test_more_than_four_tags_and_a_repeated_tag(tmp_path: Path) -> None:
    declared = DECLARED + "".join(f"- name: T{n}\n  description: d.\n  single: s\n"
                                  for n in range(4))
    pages = mini_site(tmp_path, {**GOOD_PAGES, "c": "[Custom operators, T0, T1, T2, T3]",
                                 "b": "[Dynamic shapes, Graph breaks, Graph breaks]"}, declared)
    assert problems(tmp_path, pages) == [
        f"docs/export/b.md:{TAGS_LINE}: tag 'Graph breaks' is listed twice. Keep one",
        f"docs/export/c.md:{TAGS_LINE}: the page has 5 tags; at most 4 are allowed. Keep the "
        "concepts a reader would browse to find this question, and drop the rest"]


def test_the_scaffold_placeholder_is_left_to_the_placeholder_rule(tmp_path: Path) -> None:
    pages = mini_site(tmp_path, {**GOOD_PAGES, "new": "[TODO]"})
    assert problems(tmp_path, pages) == []


BROKEN_FILES = [
    # (name, tags.yml text, line, fragment)
    ("not YAML", DECLARED.replace("Where a graph stops.", "Where: a graph stops."), 5,
     "not valid YAML (mapping values are not allowed here)"),
    ("unclosed at the end", DECLARED + "- name: [Open\n", 9, "not valid YAML"),
    ("not a list", "name: Dynamic shapes\n", 1, "no tags are declared"),
    ("empty", "# nothing yet\n", 1, "no tags are declared"),
    ("no description", DECLARED + "- name: Lonely\n", 9, "entry 4 has no 'description'"),
    ("unknown field", DECLARED.replace("  single:", "  alone:"), 8,
     "entry 3 has an unknown field 'alone'. Use only name, description, single"),
    ("empty description", DECLARED.replace("Symbolic sizes.", "''"), 3,
     "'description' of entry 1 is not one line of text"),
    ("declared twice", DECLARED + "- name: Graph breaks\n  description: again.\n", 9,
     "tag 'Graph breaks' is declared twice (first on line 4). Keep one entry"),
    ("one anchor", DECLARED + "- name: graph-breaks\n  description: again.\n", 9,
     "tags 'Graph breaks' (line 4) and 'graph-breaks' share the anchor #tag:graph-breaks"),
    ("not a mapping", DECLARED + "- Lonely\n", 9, "entry 4 is not a 'name' and a 'description'"),
]


@pytest.mark.parametrize(("name", "text", "line", "fragment"), BROKEN_FILES,
                         ids=[case[0] for case in BROKEN_FILES])
def test_a_broken_tags_file_is_reported_with_its_line(tmp_path: Path, name: str, text: str,
                                                      line: int, fragment: str) -> None:
    found = problems(tmp_path, mini_site(tmp_path, GOOD_PAGES, text))
    assert len(found) == 1, found  # the pages are not judged against a list that cannot be read
    assert found[0].startswith(f"docs/tags.yml:{line}: "), found
    assert fragment in found[0], found
    assert ". " in found[0]  # what, then how to fix it


def test_a_missing_tags_file(tmp_path: Path) -> None:
    pages = mini_site(tmp_path, GOOD_PAGES)
    (tmp_path / "docs" / "tags.yml").unlink()
    assert problems(tmp_path, pages) == [
        "docs/tags.yml:1: docs/tags.yml is missing. Create it. Write one '- name: <tag>' entry per "
        "tag, with 'description: <what a reader finds under it>' below it (and 'single: <why>' for "
        "a tag on one page only)"]


@pytest.mark.parametrize(("tag", "close"), [
    ("dynamic_shapes", ["Dynamic shapes"]),  # same name, other case and spacing: that one only
    ("Grpah breaks", ["Graph breaks"]),  # a typo
    ("custom_op", ["Custom operators"]),  # the start of a word
    ("Graph", ["Graph breaks"]),
    ("torch.library", []),  # 'torch' alone says nothing
    ("pytree", []),
])
def test_close_tags(tag: str, close: list[str]) -> None:
    assert close_tags(tag, ["Dynamic shapes", "Graph breaks", "Custom operators", "TorchScript"]) \
        == close


def test_tag_slugs_are_the_anchors_of_materials_tags_page() -> None:
    assert tag_slug("IR and decompositions") == "ir-and-decompositions"
    assert tag_slug("ExportedProgram") == "exportedprogram"
    assert tag_slug("Graph breaks") == tag_slug("graph-breaks")


def test_the_tags_page_lists_exactly_the_declared_tags(real_site: Path) -> None:
    """Material's own Tags page (the repository's build): one anchor per declared tag, made as
    tag_slug makes it, and the declaration file itself is not published."""
    html = (real_site / "tags" / "index.html").read_text()
    tags, _ = load_tags(ROOT, ROOT / "docs")
    assert sorted(re.findall(r'id="(tag:[^"]+)"', html)) == sorted(
        f"tag:{tag_slug(tag.name)}" for tag in tags)
    assert not (real_site / "tags.yml").exists()
