"""The page classifier and the sample of pages the page tours run axe on (page_templates.py,
page_sample.py): every template is in the sample, the same seed draws the same pages, another
seed others, and 300 more questions do not make the sample bigger.

No build and no browser: the templates are read from a small site written here, and the sample
is drawn from the real bank's question pages (its source) and from a grown copy of them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from helpers import ROOT, write

from .grown import BENCH
from .page_sample import (
    PER_TEMPLATE_SIZES,
    commit_seed,
    sample,
    sample_from_env,
    size_for,
)
from .page_templates import NOTEBOOK_MARK, QUESTION, TOPIC, UnknownTemplate, templates
from .sites import Site, question_urls

PAGE = "<!doctype html><html><body>{}</body></html>"


def small_site(tmp_path: Path) -> Site:
    """A source and a "build" of every kind of page: home, a tool page, a topic with three
    questions, its notebook, the theme's 404 and a redirect stub (not a page)."""
    root, built = tmp_path / "repo", tmp_path / "site"
    write(root, "docs/topics.yml", "- id: t\n  title: T\n")
    for source in ("index.md", "progress.md", "t/index.md", "t/a.md", "t/b.md", "t/c.md"):
        write(root, f"docs/{source}", "# A page\n")
    for rel in ("", "progress/", "t/", "t/a/", "t/b/", "t/c/"):
        write(built, rel + "index.html", PAGE.format("<h1>A page</h1>"))
    write(built, "notebooks/t/index.html", PAGE.format(f'<div {NOTEBOOK_MARK}">cells</div>'))
    write(built, "404.html", PAGE.format("<h1>404</h1>"))
    write(built, "moved/index.html", '<!doctype html><meta http-equiv="refresh" content="0; url=../t/">')
    return Site("small", root, built, "http://127.0.0.1/", ["t/a/", "t/b/", "t/c/"])


def test_every_page_falls_into_the_template_it_is_built_from(tmp_path: Path) -> None:
    assert templates(small_site(tmp_path)) == {
        "notebook": ["notebooks/t/"], "page:index.md": [""], "page:progress.md": ["progress/"],
        QUESTION: ["t/a/", "t/b/", "t/c/"], "static:404.html": ["404.html"], TOPIC: ["t/"]}


def test_a_page_of_no_known_kind_fails_loudly(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    write(site.dir, "generated/index.html", PAGE.format("<h1>Made by a new plugin</h1>"))
    with pytest.raises(UnknownTemplate, match="'generated/'"):
        templates(site)


def test_a_question_missing_from_the_build_fails_loudly(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    site.questions.append("t/d/")
    with pytest.raises(UnknownTemplate, match="t/d/"):
        templates(site)


@cache
def real_questions() -> tuple[str, ...]:
    """The real bank's question pages (parsing the bank takes seconds: once)."""
    return tuple(question_urls(ROOT))


def bank(extra_questions: int = 0, extra_topics: int = 0) -> dict[str, list[str]]:
    """The real site's templates as its source has them (question pages, topics, one page each
    for the home page, the index, the tools, a notebook per topic), grown like grown.py."""
    questions = list(real_questions())
    topics = sorted({rel.split("/")[0] for rel in questions})
    real_topics = list(topics)
    questions += [f"extra{i // BENCH.per_topic + 1}/copy-{i}/" for i in range(extra_questions)]
    topics += [f"extra{i + 1}" for i in range(extra_topics)]
    if extra_topics:  # grown.py also adds copies to every real topic
        questions += [f"{t}/copy-{i}/" for t in real_topics for i in range(BENCH.per_real_topic)]
    return {QUESTION: questions, TOPIC: [t + "/" for t in topics],
            "notebook": [f"notebooks/{t}/" for t in topics],
            "page:index.md": [""], "page:questions.md": ["questions/"],
            "page:progress.md": ["progress/"], "static:404.html": ["404.html"]}


def test_the_sample_has_every_template_and_a_fixed_number_of_each() -> None:
    drawn = sample(bank(), "seed")
    assert set(drawn.by_template) == set(bank())
    for template, pages in bank().items():
        assert len(drawn.by_template[template]) == min(len(pages), size_for(template)) >= 1
        assert set(drawn.by_template[template]) <= set(pages)
    assert len(bank()[QUESTION]) > PER_TEMPLATE_SIZES[QUESTION], "the bank is bigger than its sample"


def test_the_same_seed_draws_the_same_pages_and_another_seed_others() -> None:
    first = sample(bank(), "111e578")
    shuffled = {template: list(reversed(pages)) for template, pages in bank().items()}
    assert sample(shuffled, "111e578") == first, "the draw depends on the order pages were listed"
    others = [sample(bank(), seed).by_template[QUESTION] for seed in ("a", "b", "c", "d")]
    assert all(pages != first.by_template[QUESTION] for pages in others), others


def test_300_more_questions_sample_no_more_pages() -> None:
    today = sample(bank(), "seed")
    grown = sample(bank(BENCH.extra_topics * BENCH.per_topic, BENCH.extra_topics), "seed")
    assert grown.total >= today.total + 300
    assert len(grown.pages) == len(today.pages), (today.by_template, grown.by_template)


def test_the_environment_chooses_the_seed_or_every_page() -> None:
    assert sample_from_env(bank(), env={}).seed == commit_seed() != "no-commit"
    assert len(commit_seed()) == 40, "the seed of a checkout is its commit"
    assert sample_from_env(bank(), env={"SITE_SAMPLE_SEED": "x"}) == sample(bank(), "x")
    every = sample_from_env(bank(), env={"SITE_SAMPLE": "all"})
    assert every.every_page and every.pages == {rel for pages in bank().values() for rel in pages}
    assert "every page" in every.describe()
    with pytest.raises(ValueError, match="SITE_SAMPLE"):
        sample_from_env(bank(), env={"SITE_SAMPLE": "everything"})


def test_the_description_names_the_seed_and_every_sampled_page() -> None:
    drawn = sample(bank(), "c0ffee")
    text = drawn.describe()
    assert "SITE_SAMPLE_SEED=c0ffee" in text
    assert all(rel in text for rel in drawn.pages if rel), text
    assert "  page:index.md: /" in text
