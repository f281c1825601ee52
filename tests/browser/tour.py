"""A page tour: every page of a site, one after the other, in one browser layout and palette,
with the cheap gates on every page and the expensive one (axe) on the pages of a sample.

Shared by the page tours (test_pages.py) and their benchmark (bench_tour.py), so the benchmark
times exactly what the tests run.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from playwright.sync_api import Browser, BrowserContext

from .gates import (
    DESKTOP,
    PHONE,
    Visit,
    recorded_context,
    serious_accessibility_violations,
    sideways_scroll,
    visit,
)
from .sites import Site


@dataclass(frozen=True)
class Layout:
    """How the browser meets the pages: its context's options, and whether the page must fit
    the width without scrolling sideways (a phone)."""

    name: str
    options: dict[str, object] = field(default_factory=dict)
    fits_width: bool = False


DESKTOP_LIGHT = Layout("desktop, light", {"viewport": DESKTOP, "color_scheme": "light"})
# The phone layout (drawer navigation, no sidebars) and the dark palette are what many readers get.
PHONE_DARK = Layout("phone, dark", {"viewport": PHONE, "color_scheme": "dark", "is_mobile": True,
                                    "has_touch": True}, fits_width=True)


def check_page(context: BrowserContext, visits: list[Visit], url: str, layout: Layout,
               expensive: bool) -> list[str]:
    """One page's problems: load status, console errors, failed requests and requests to other
    hosts always, sideways scroll where the layout is a phone's, axe when `expensive`. axe runs
    before the wait for a quiet network, which it overlaps."""
    page, record = visit(context, visits, url, quiet=False)
    problems = sideways_scroll(page) if layout.fits_width else []
    if expensive:
        problems += serious_accessibility_violations(page)
    page.wait_for_load_state("networkidle")
    problems += record.problems()
    page.close()
    return problems


def tour(browser: Browser, site: Site, layout: Layout, pages: Iterable[str],
         expensive: Container[str]) -> list[str]:
    """Every page of `pages`, in one fresh context (a first visit, then the cache a reader has),
    with axe on those in `expensive`; returns every problem found."""
    problems: list[str] = []
    with recorded_context(browser, site.base, **layout.options) as (context, visits):
        for rel in pages:
            problems += check_page(context, visits, site.url(rel), layout, rel in expensive)
    return problems
