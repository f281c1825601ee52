"""A drill's page (question_pages/drills/pages.py) and its rendering (render.py): a page in the
format loads; each way out of it is refused with the file, the line and the fix; a page of no
drill and a drill with no page are both named; and the rendered page holds the drill's files as
they are, with the hints each inside the one before. A seeded generator of broken pages checks
that none crashes the checks or is let through unnamed."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from helpers import ROOT, write
from question_pages.drills.bank import verdict_source
from question_pages.drills.pages import load_drill_pages
from question_pages.drills.render import hints_block, questions_behind, render_drill_page
from question_pages.format.parse import parse_page
from snippet_engine.records.status import StatusBook

JUDGE = '''from _drill import Tests, expect_tensor, need
import torch

TESTS = Tests("add-one")


@TESTS.test("adds one to every element", hint="x + 1")
def test_values(solution):
    x = torch.arange(4.0)
    expect_tensor(need(solution, "add_one")(x), x + 1)
'''
EXPLAINED = " ".join(["Adding one to every element is x plus one, broadcast over the tensor."] * 8)
PAGE = f'''---
drill: add-one
title: "Add one to a tensor"
level: junior
minutes: 10
hints:
  - "Python's + works on tensors."
  - "x + 1 broadcasts the one."
---

## Task

Add one to every element of x, keeping its dtype.

## Explained

{EXPLAINED}

## Follow-ups

### And in place?

`x.add_(1)` writes into x; autograd refuses it on a leaf that requires grad.

## Red flags

- Looping over the elements in Python.
'''


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    folder = "snippets/drills/add-one/"
    write(root, folder + "_judge.py", JUDGE)
    write(root, folder + "_starter.py", "def add_one(x):\n    raise NotImplementedError\n")
    write(root, folder + "_reference.py", "def add_one(x):\n    return x + 1\n")
    write(root, folder + "_mistake_two.py", "# mistake: adds two\n# fails: values\n"
                                            "def add_one(x):\n    return x + 2\n")
    for role in ("starter", "reference", "mistake_two"):
        write(root, f"{folder}judge_{role}.py", verdict_source(role))
    write(root, "docs/drills/add-one.md", PAGE)
    for pins in ("requirements.txt", "constraints.txt"):  # the snippet blocks name the pinned torch
        write(root, pins, (ROOT / pins).read_text())
    return root


def errors_of(root: Path) -> list[str]:
    return [str(e) for e in load_drill_pages(root)[1]]


def test_a_page_in_the_format_loads(repo: Path) -> None:
    pages, errors = load_drill_pages(repo)
    assert errors == []
    (page,) = pages
    assert (page.id, page.title, page.level, page.minutes) == ("add-one", "Add one to a tensor", "junior", 10)
    assert page.hints == ["Python's + works on tensors.", "x + 1 broadcasts the one."]


@pytest.mark.parametrize(("old", "new", "says"), [
    ("level: junior", "level: expert", "docs/drills/add-one.md:4: level 'expert' is not one of"),
    ("minutes: 10", "minutes: 5", "docs/drills/add-one.md:5: minutes must be a whole number from 10 to 60"),
    ("minutes: 10", "minutes: true", "docs/drills/add-one.md:5: minutes must be a whole number"),
    ('hints:\n  - "Python\'s + works on tensors."\n  - "x + 1 broadcasts the one."', "hints: []",
     "docs/drills/add-one.md:6: hints must be a list of at least one non-empty string"),
    ("drill: add-one", "drill: add-two", "docs/drills/add-one.md:2: the page is named add-one.md but is "
                                         "of drill 'add-two'"),
    ('title: "Add one to a tensor"\n', "", "docs/drills/add-one.md:2: the front matter has no 'title'"),
    ("minutes: 10", "minutes: 10\nauthor: me", "docs/drills/add-one.md:6: unknown field 'author'"),
    ("## Explained", "## Solution", "docs/drills/add-one.md:15: unknown section '## Solution'"),
    (EXPLAINED, "Too short.", "docs/drills/add-one.md:15: '## Explained' has 2 words, not 60 to 170"),
    ("### And in place?\n\n`x.add_(1)` writes into x; autograd refuses it on a leaf that requires grad.",
     "### And in place?", "docs/drills/add-one.md:21: the follow-up 'And in place?' has no answer"),
    ("## Red flags", "## Task", "the sections are in the order"),
    ("`x.add_(1)`", '{{ snippet("core/hooks_order.py") }}\n\n`x.add_(1)`',
     "docs/drills/add-one.md:23: 'core/hooks_order.py' is not a snippet of this drill"),
    ("`x.add_(1)`", '{{ snippet("drills/add-one/gone.py") }}\n\n`x.add_(1)`',
     "docs/drills/add-one.md:23: no snippet snippets/drills/add-one/gone.py"),
    ("---\ndrill", "drill", "docs/drills/add-one.md:1: the page has no YAML front matter"),
])
def test_each_way_out_of_the_format_is_named_where_it_is(repo: Path, old: str, new: str, says: str) -> None:
    page = repo / "docs/drills/add-one.md"
    assert old in page.read_text()
    page.write_text(page.read_text().replace(old, new, 1))
    found = errors_of(repo)
    assert any(says in e for e in found), found
    assert load_drill_pages(repo)[0] == [], "a page with a problem must not be rendered"


def test_a_page_of_no_drill_and_a_drill_with_no_page_are_both_named(repo: Path) -> None:
    (repo / "docs/drills/add-one.md").rename(repo / "docs/drills/add-two.md")
    found = errors_of(repo)
    assert any(e.startswith("docs/drills/add-two.md:2: there is no drill 'add-two'") for e in found), found
    assert any(e.startswith("docs/drills/add-one.md:1: the drill 'add-one' has no page")
               for e in found), found


def test_the_rendered_page_shows_the_files_and_folds_the_solution(repo: Path) -> None:
    (page,), _ = load_drill_pages(repo)
    markdown = render_drill_page(page, repo, StatusBook(repo))
    assert "def add_one(x):\n    raise NotImplementedError\n" in markdown
    assert '??? success drill-solution "Show the solution"' in markdown
    solution = markdown.split('"Show the solution"', 1)[1]
    assert "    def add_one(x):\n        return x + 1\n" in solution, "the reference is inside the fold"
    assert "return x + 1" not in markdown.split('"Show the solution"', 1)[0]
    assert 'href="drill_add-one.py" download' in markdown
    assert "| `values` |" in markdown


def test_the_questions_that_link_to_a_drill_are_linked_back(repo: Path) -> None:
    docs = repo / "docs"
    linking = write(repo, "docs/llm/adds.md", '---\nquestion: "How does adding work?"\n---\n\n'
                    "## Explainer\n\nPractise it: [the drill](../drills/add-one.md#task).\n")
    other = write(repo, "docs/llm/other.md", '---\nquestion: "Unrelated?"\n---\n\n## Explainer\n\n'
                  "[another drill](../drills/add-one-more.md), and drills/add-one.md as plain text.\n")
    questions = [parse_page(path, docs) for path in (other, linking)]
    assert [q.page_id for q in questions_behind("add-one", questions)] == ["llm/adds"]
    (page,), _ = load_drill_pages(repo)
    markdown = render_drill_page(page, repo, StatusBook(repo), None,
                                 questions_behind("add-one", questions))
    assert markdown.rstrip().endswith("## The questions behind it {#questions}\n\n"
                                      "- [How does adding work?](../llm/adds.md)")
    assert "{#questions}" not in render_drill_page(page, repo, StatusBook(repo))


def test_each_hint_is_inside_the_one_before() -> None:
    block = hints_block(["first", "second", "third"])
    heads = [(len(m.group(1)), m.group(2)) for m in re.finditer(r'^( *)\?\?\? tip drill-hint "([^"]+)"',
                                                                block, re.M)]
    assert heads == [(0, "Hint 1 of 3"), (4, "Hint 2 of 3"), (8, "Hint 3 of 3")]


def test_the_real_drills_each_have_a_page_in_the_format() -> None:
    pages, errors = load_drill_pages(ROOT)
    assert errors == [], errors
    assert {p.id for p in pages} == {d.name for d in (ROOT / "snippets/drills").iterdir() if d.is_dir()}


def test_generated_broken_pages_are_each_refused_or_in_the_format(repo: Path) -> None:
    """Seeded: lines of a good page dropped, doubled, swapped or cut short. The checks never
    raise, and each error names the page and a line inside it; a page with no error renders."""
    rng = random.Random(20261204)
    page = repo / "docs/drills/add-one.md"
    lines = PAGE.split("\n")
    refused = 0
    for _ in range(150):
        mutated = list(lines)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(mutated))
            kind = rng.choice(("drop", "double", "swap", "cut"))
            if kind == "drop":
                del mutated[at]
            elif kind == "double":
                mutated.insert(at, mutated[at])
            elif kind == "swap" and at + 1 < len(mutated):
                mutated[at], mutated[at + 1] = mutated[at + 1], mutated[at]
            elif kind == "cut":
                mutated[at] = mutated[at][: rng.randrange(len(mutated[at]) + 1)]
        page.write_text("\n".join(mutated))
        pages, errors = load_drill_pages(repo)
        count = len(mutated)
        for error in errors:
            assert error.rel == "docs/drills/add-one.md" and 1 <= error.line <= count + 1, error
            assert error.what and error.fix, error
        if errors:
            refused += 1
            assert pages == []
        else:
            render_drill_page(pages[0], repo, StatusBook(repo))
    assert refused > 50, refused
