"""Ties: the syntax, and the check that fails the build when a tied fragment is not in its
snippet's record or its torch source file, naming the page, the line and the sentence."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from helpers import run_cli
from question_pages.format.loading import load_pages
from question_pages.format.parse import parse_page, words
from question_pages.format.ties import line_ties, malformed, strip_ties, tied_sentence
from site_fixture import FIXTURES, build

GOOD = (FIXTURES / "good-page.md").read_text()
OTHER = (FIXTURES / "other-page.md").read_text()


def test_markers_parse_and_strip() -> None:
    line = ('- a view shares storage [[out core/v.py: "shares: True"]] and '
            r'[[out@cpu,cuda core/w.py: /grad_fn=<\w+Backward0>/]] [[src torch/x.py: "say \"hi\""]].')
    ties = line_ties(7, line)
    assert [(t.kind, t.ref, t.devices) for t in ties] == [
        ("out", "core/v.py", ("cpu",)), ("out", "core/w.py", ("cpu", "cuda")), ("src", "torch/x.py", ())]
    assert ties[0].text == "shares: True" and ties[1].pattern == r"grad_fn=<\w+Backward0>"
    assert ties[2].text == 'say "hi"'
    assert strip_ties(line) == "- a view shares storage and."
    assert all(t.sentence == "a view shares storage and." and t.line == 7 for t in ties)
    assert ties[1].find("x grad_fn=<AddBackward0> y") == (2, 24)
    assert ties[0].find("nothing") is None
    assert not malformed(line)
    assert malformed("text [[out core/v.py shares]]") and malformed("[[src torch/x.py: no quotes]]")


def test_ties_do_not_count_as_words_or_reach_what_reads_the_text(site_source: Path) -> None:
    page = parse_page(site_source / "docs/export/good-page.md", site_source / "docs")
    basics = page.section("Basics")
    assert basics is not None and "[[" not in basics.text and "tensor\\(" not in basics.text
    plain = parse_page(site_source / "docs/export/good-page.md", site_source / "docs",
                       strip_ties(GOOD))
    assert words(basics.text) == words(plain.section("Basics").text)  # type: ignore[union-attr]
    short = page.section("Short answer")
    assert short is not None and short.text.endswith("- and an HTML tag, escaped")
    assert page.raw and all("[[" in line for line in page.raw.values())


def test_the_fixture_ties_hold(site_source: Path) -> None:
    _, errors = load_pages(site_source)
    assert [str(e) for e in errors] == []


@pytest.fixture
def scratch(site_source: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(site_source, copy, ignore=shutil.ignore_patterns("site", ".cache"))
    return copy


def test_a_changed_output_fails_the_build_naming_the_sentence(scratch: Path) -> None:
    """The snippet changed and was recorded again (a real record, not a hand edit): the sentence
    tied to its old output no longer holds, and the build says which sentence, where."""
    snippet = scratch / "snippets/export/fixture_plain.py"
    snippet.write_text("print('different output now')\n")
    assert run_cli("run", str(snippet), root=scratch).returncode == 0
    done = build(scratch)
    assert done.returncode != 0
    assert ("docs/export/other-page.md:13: the tie of 'yes' does not hold: \"plain output\" is not "
            "in the cpu record of snippets/export/fixture_plain.py") in done.stderr


def test_a_fragment_torch_does_not_have_fails_the_build(scratch: Path) -> None:
    page = scratch / "docs/export/good-page.md"
    page.write_text(GOOD.replace('"class Module:"', '"class Module(NotInTorch):"'))
    done = build(scratch)
    assert done.returncode != 0
    assert ("docs/export/good-page.md:70: the tie of '\"Outputs can be pasted.\" They go stale; see "
            "[why](#why-escaping-matters).' does not hold: \"class Module(NotInTorch):\" is not in "
            "torch/nn/modules/module.py of torch 2.13.0") in done.stderr


@pytest.mark.parametrize(("mutate", "what"), [
    (lambda t: t.replace("fixture_tensor.py: \"<script>", "fixture_gone.py: \"<script>"),
     "snippets/export/fixture_gone.py is not shown on this page"),
    (lambda t: t.replace("[[out export/fixture_tensor.py: /tensor",
                         "[[out@cuda,cpu export/fixture_tensor.py: /nothing"),
     "is not in the cuda record of snippets/export/fixture_tensor.py"),
    (lambda t: t.replace('[[src torch/nn/modules/module.py', '[[src numpy/core/x.py'),
     "'numpy/core/x.py' is not in a package whose source the site links"),
    (lambda t: t.replace('[[src torch/nn/modules/module.py: "class Module:"]]',
                         '[[src torch/nn/modules/module.py: "class Module:"]] [[src torch/x.py: class]]'),
     "a tie this page cannot read. Write it as [[out topic/name.py:"),
])
def test_each_kind_of_broken_tie_is_one_message(site_source: Path, mutate, what: str) -> None:
    page = site_source / "docs/export/good-page.md"
    page.write_text(mutate(GOOD))
    try:
        _, errors = load_pages(site_source)
    finally:
        page.write_text(GOOD)
    assert len(errors) == 1 and what in str(errors[0]), [str(e) for e in errors]
    assert str(errors[0]).startswith("docs/export/good-page.md:")


def test_hostile_markers_never_crash_the_check(site_source: Path) -> None:
    """A seeded generator of half-written, nested and odd markers: every page either passes or
    gets errors with a line; nothing raises."""
    rng = random.Random(36)
    pieces = ["[[", "]]", "out", "src", "@cuda", "@", "export/fixture_tensor.py", "torch/", ":",
              '"', "/", "\\", "(", "[", "<script>", " ", "tensor", "\n"]
    page = site_source / "docs/export/good-page.md"
    try:
        for _ in range(40):
            junk = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 25)))
            line = "- it prints a tensor " + junk.replace("\n", " ")
            page.write_text(GOOD.replace("- it prints a tensor", line))
            _, errors = load_pages(site_source)
            assert all(e.rel == "docs/export/good-page.md" and e.line >= 1 for e in errors)
    finally:
        page.write_text(GOOD)


@pytest.mark.parametrize(("section", "old", "new", "what"), [
    ("Short answer", '- it prints a tensor [[out export/fixture_tensor.py: "tensor(["]]',
     "- it prints a tensor", "this short-answer bullet is not tied to its evidence"),
    ("Red flags", ' [[src torch/nn/modules/module.py: "class Module:"]]', "",
     "this red flag's rebuttal is not tied to its evidence"),
])
def test_every_short_answer_bullet_and_red_flag_is_tied(site_source: Path, section: str, old: str,
                                                       new: str, what: str) -> None:
    assert old in GOOD
    page = site_source / "docs/export/good-page.md"
    page.write_text(GOOD.replace(old, new))
    try:
        _, errors = load_pages(site_source)
    finally:
        page.write_text(GOOD)
    line = next(n for n, text in enumerate(GOOD.split("\n"), start=1) if old in text)
    assert [str(e).split(". End it")[0] for e in errors] == [f"docs/export/good-page.md:{line}: {what}"]


def test_coverage_counts_tied_bullets_red_flags_and_the_rest(site_source: Path) -> None:
    from question_pages.format.ties import coverage

    page = parse_page(site_source / "docs/export/good-page.md", site_source / "docs")
    got = coverage(page.page_id, {s.title: s.body for s in page.sections}, page.raw)
    assert (got.bullets, got.bullets_tied, got.red_flags, got.red_flags_tied) == (2, 2, 1, 1)
    assert (got.other_ties, got.source_ties) == (1, 1)  # the Basics tie; the red flag's src tie
    bare = parse_page(site_source / "docs/export/good-page.md", site_source / "docs",
                      GOOD.replace(' [[out export/fixture_tensor.py: "tensor(["]]', ""))
    assert coverage(bare.page_id, {s.title: s.body for s in bare.sections}, bare.raw).bullets_tied == 1


def test_the_sentence_a_tie_backs_is_found_over_the_lines_before_it() -> None:
    """What the drift report quotes: the sentence before the marker, however the paragraph wraps,
    not the fragment of a line the marker happens to stand on."""
    raw = {1: "The first call raised an error. It wrote two files,",
           2: "and neither holds the inputs: they are read from the",
           3: 'folder it saved. [[src torch/x.py: "a"]] [[out t/s.py: "b"]] The minifier made',
           4: '22 queries. [[out t/s.py: "Made 22"]]',
           6: '- A bullet is its own start, [[out t/s.py: "c"]]',
           7: "| a table | row [[out t/s.py: \"d\"]] |"}
    lines = {n: strip_ties(line) for n, line in raw.items()}
    found = [tied_sentence(lines, tie, raw[n]) for n in sorted(raw) for tie in line_ties(n, raw[n])]
    assert found == [
        "It wrote two files, and neither holds the inputs: they are read from the folder it saved.",
        "It wrote two files, and neither holds the inputs: they are read from the folder it saved.",
        "The minifier made 22 queries.",
        "A bullet is its own start,",
        "| a table | row"]
