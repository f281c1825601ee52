"""A page tour: every page of a site, one after the other, in one browser layout and palette,
with the cheap gates on every page and the expensive one (axe) on the pages of a sample.

Shared by the page tours (test_pages.py) and their benchmark (bench_tour.py), so the benchmark
times exactly what the tests run.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field

from playwright.sync_api import Browser, BrowserContext, Page

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
    """How the browser meets the pages: its context's options; whether the page must fit the
    width without scrolling sideways (a phone); a width to narrow the window to once the page is
    read, to check that too; and whether the tour takes every page or only the sample."""

    name: str
    options: dict[str, object] = field(default_factory=dict)
    fits_width: bool = False
    narrowed_to: dict[str, int] | None = None
    every_page: bool = True


# Every page: the cheap gates, then the window narrowed to a phone's width for the sideways-scroll
# check (a page narrowed after loading overflows exactly where a page loaded on a phone does: the
# same client width and the same verdict on all 129 pages of a build, and on each with a 420 px
# element added; /tmp experiment of 2026-12-07, described in the closing note of issue 42).
DESKTOP_LIGHT = Layout("desktop, light", {"viewport": DESKTOP, "color_scheme": "light"},
                       narrowed_to=PHONE)
# The phone layout (drawer navigation, no sidebars) and the dark palette, what many readers get:
# on the sample, the expensive pass (the whole page loaded as a phone loads it, and axe).
PHONE_DARK = Layout("phone, dark", {"viewport": PHONE, "color_scheme": "dark", "is_mobile": True,
                                    "has_touch": True}, fits_width=True, every_page=False)


# Pages open at once in a tour, each in a context of its own. A page's last gate waits for half a
# second of quiet on the network (late requests, console errors); with two pages at once the
# next page loads during that wait instead of after it.
AT_ONCE = 2


def open_page(context: BrowserContext, visits: list[Visit], url: str, layout: Layout,
              expensive: bool, tab: Page | None = None) -> tuple[Page, Visit, list[str]]:
    """Load one page (in `tab`, or a new tab) and run the gates that read it as it is once
    loaded: sideways scroll where the layout is a phone's, axe when `expensive`, then sideways
    scroll at the narrowed width where the layout narrows (all before the wait for a quiet
    network, which they overlap)."""
    if tab is not None and layout.narrowed_to:
        tab.set_viewport_size(layout.options["viewport"])  # type: ignore[arg-type]
    page, record = visit(context, visits, url, quiet=False, page=tab)
    problems = sideways_scroll(page) if layout.fits_width else []
    if expensive:
        problems += serious_accessibility_violations(page)
    if layout.narrowed_to:
        page.set_viewport_size(layout.narrowed_to)  # type: ignore[arg-type]  # a ViewportSize
        problems += sideways_scroll(page)
    return page, record, problems


def settle(page: Page, record: Visit, close: bool = True) -> list[str]:
    """Wait for a quiet network, then the page's whole record: load status, console errors,
    failed requests, requests to other hosts."""
    page.wait_for_load_state("networkidle")
    problems = record.problems()
    if close:
        page.close()
    return problems


def check_page(context: BrowserContext, visits: list[Visit], url: str, layout: Layout,
               expensive: bool) -> list[str]:
    """One page's problems, the page alone."""
    page, record, problems = open_page(context, visits, url, layout, expensive)
    return problems + settle(page, record)


class Tour:
    """`at_once` fresh contexts (first visits, then the cache a reader has) in one layout, which
    take a tour's pages in turn. Each has one tab, which goes from page to page, so what a context
    records is that page's alone, and a page is settled (its quiet network waited for) only after
    the next one, in the other context, has loaded."""

    def __init__(self, stack: ExitStack, browser: Browser, site: Site, layout: Layout,
                 at_once: int = AT_ONCE, read: str | None = None) -> None:
        self.site, self.layout = site, layout
        # `read`: a function evaluated on each page once loaded, its result kept by page in
        # `reads`, for a test that needs every page's state without loading them all again.
        self.read, self.reads = read, dict[str, object]()
        self.contexts = [stack.enter_context(recorded_context(browser, site.base, **layout.options))
                         for _ in range(at_once)]

    def run(self, pages: Iterable[str], expensive: Container[str]) -> list[str]:
        """Every page of `pages` with axe on those in `expensive`; every problem found."""
        problems: list[str] = []
        waiting: deque[tuple[Page, Visit]] = deque()
        tabs: list[Page | None] = [None] * len(self.contexts)
        for number, rel in enumerate(pages):
            if len(waiting) == len(self.contexts):
                problems += settle(*waiting.popleft(), close=False)
            context, visits = self.contexts[number % len(self.contexts)]
            page, record, found = open_page(context, visits, self.site.url(rel), self.layout,
                                            rel in expensive, tabs[number % len(self.contexts)])
            tabs[number % len(self.contexts)] = page
            if self.read is not None:
                self.reads[rel] = page.evaluate(self.read)
            problems += found
            waiting.append((page, record))
        while waiting:
            problems += settle(*waiting.popleft())  # and close the tabs
        return problems


def tour(browser: Browser, site: Site, layout: Layout, pages: Iterable[str],
         expensive: Container[str], at_once: int = AT_ONCE) -> list[str]:
    """Every page of `pages`, in fresh contexts, with axe on those in `expensive`; returns every
    problem found."""
    with ExitStack() as stack:
        return Tour(stack, browser, site, layout, at_once).run(pages, expensive)
