"""Every page of the built site, as a reader's browser meets it: it loads (status 200, no console
error, no failed request), asks no other host for anything, and, at phone width, does not scroll
sideways; and every template of page passes axe-core with no serious or critical violation.

The cheap gates run on every page, in the desktop layout and light palette, with the window then
narrowed to a phone's width for the sideways-scroll check. The expensive ones run on a sample
(page_sample.py): axe in both layouts and palettes, and the whole page loaded as a phone loads it
(drawer navigation, touch, the dark palette). The sample takes every template, a fixed number of
pages each, drawn by a seed that changes with the commit, so the tours' expensive part costs the
same however many questions the bank has. The sample and its seed are in the failure message and
in the run's site measurements; `SITE_SAMPLE_SEED=<seed>` draws the same sample again and
`SITE_SAMPLE=all` takes every page. tests/browser/bench_tour.py times the tours.

The desktop tour also reads each page's head as a link to it shows it (sharing.py), so that the
sharing check of the real site costs no second load of every page.

On the real site only: these are the slowest browser tests (axe's colour-contrast rule takes a
second on a question page), and test_gates_catch_breaks.py runs the same gates on the fixture
site's pages.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import NamedTuple

import pytest
from playwright.sync_api import Browser

from .page_sample import PageSample, sample_from_env
from .page_templates import DRILL, NOTEBOOK, QUESTION, TOPIC, templates
from .sharing import READ_HEAD, problems, questions_by_url, site_url
from .sites import Site
from .tour import DESKTOP_LIGHT, PHONE_DARK, Tour, tour


@pytest.fixture(scope="module")
def page_sample(real_site: Site, report: dict[str, object]) -> PageSample:
    chosen = sample_from_env(templates(real_site))
    report["page tours: axe on"] = {"seed": chosen.seed, "every page": chosen.every_page,
                                    "pages": f"{len(chosen.pages)} of {chosen.total}",
                                    "sample": chosen.by_template}
    print(chosen.describe())
    return chosen


def test_the_sample_takes_every_template_of_the_real_site(real_site: Site,
                                                         page_sample: PageSample) -> None:
    """The real site's pages, as the classifier sees them: its question pages, its topics, the
    notebooks, the home page, the tools and the theme's 404 each in their template, and each
    template in the sample the tours run axe on."""
    found = templates(real_site)
    assert found[QUESTION] == sorted(real_site.questions)
    assert found[TOPIC] == sorted(topic + "/" for topic in real_site.topics)
    drills = (real_site.root / "docs" / "drills").glob("*.md")
    assert found[DRILL] == sorted(f"drills/{p.stem}/" for p in drills if p.name != "index.md")
    assert len(found[NOTEBOOK]) == len(real_site.topics), found[NOTEBOOK]
    assert {"page:index.md", "page:questions.md", "page:progress.md", "page:study-plan.md",
            "page:mock-interview.md", "static:404.html"} <= set(found), sorted(found)
    assert sorted(rel for pages in found.values() for rel in pages) == sorted(real_site.pages)
    assert all(page_sample.by_template[template] for template in found), page_sample.describe()
    assert page_sample.every_page or len(page_sample.pages) < len(real_site.pages) / 2


class Toured(NamedTuple):
    problems: list[str]
    reads: dict[str, object]


@pytest.fixture(scope="module")
def desktop_tour(real_site: Site, browser: Browser, page_sample: PageSample) -> Toured:
    """Every page once, on a desktop in the light palette: the gates' problems, and each page's
    head as a link to it shows it (sharing.py), read as the page is loaded."""
    with ExitStack() as stack:
        pages = Tour(stack, browser, real_site, DESKTOP_LIGHT, read=READ_HEAD)
        return Toured(pages.run(real_site.pages, page_sample), pages.reads)


def test_every_page_on_a_desktop_in_the_light_scheme_and_at_phone_width(
        real_site: Site, desktop_tour: Toured, page_sample: PageSample) -> None:
    assert len(real_site.pages) > 5, real_site.pages
    assert not desktop_tour.problems, page_sample.describe() + "\n" + "\n".join(desktop_tour.problems)


def test_every_page_says_what_it_is_when_shared(real_site: Site, desktop_tour: Toured) -> None:
    """Every page's title and description, and each question's sharing tags, heading, canonical
    URL and QAPage data, as the browser read them in the tour (test_sharing.py does the same on
    the fixture site)."""
    pages = questions_by_url(real_site.root)
    assert sorted(pages) == sorted(real_site.questions)
    assert sorted(desktop_tour.reads) == sorted(real_site.pages)
    found = [problem for rel in real_site.pages
             for problem in problems(rel, desktop_tour.reads[rel],  # type: ignore[arg-type]
                                     pages.get(rel), site_url(real_site.root))]
    assert not found, "\n".join(found)


def test_the_sample_on_a_phone_in_the_dark_scheme(real_site: Site, browser: Browser,
                                                  page_sample: PageSample) -> None:
    """The phone layout (drawer navigation, no sidebars) and the dark palette are what many readers
    get; axe runs here too, so both layouts and both palettes meet it."""
    assert PHONE_DARK.every_page is False
    problems = tour(browser, real_site, PHONE_DARK, sorted(page_sample.pages), page_sample)
    assert not problems, page_sample.describe() + "\n" + "\n".join(problems)
