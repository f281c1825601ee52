"""Every page of the built site, as a reader's browser meets it: it loads (status 200, no console
error, no failed request), asks no other host for anything, passes axe-core with no serious or
critical violation, and, at phone width, does not scroll sideways.

On the real site only: these are the slowest tests (axe's colour-contrast rule takes a second on a
question page), and test_gates_catch_breaks.py runs the same gates on the fixture site's pages.
"""

from __future__ import annotations

from playwright.sync_api import Browser

from .gates import (
    DESKTOP,
    PHONE,
    recorded_context,
    serious_accessibility_violations,
    sideways_scroll,
    visit,
)
from .sites import Site


def test_every_page_on_a_desktop_in_the_light_scheme(real_site: Site, browser: Browser) -> None:
    problems: list[str] = []
    with recorded_context(browser, real_site.base, viewport=DESKTOP, color_scheme="light") as (context,
                                                                                           visits):
        for rel in real_site.pages:
            page, record = visit(context, visits, real_site.url(rel), quiet=False)
            problems += serious_accessibility_violations(page)
            page.wait_for_load_state("networkidle")
            problems += record.problems()
            page.close()
    assert len(real_site.pages) > 5, real_site.pages
    assert not problems, "\n".join(problems)


def test_every_page_on_a_phone_in_the_dark_scheme(real_site: Site, browser: Browser) -> None:
    """The phone layout (drawer navigation, no sidebars) and the dark palette are what many readers
    get; axe runs here too, so both layouts and both palettes meet it."""
    problems: list[str] = []
    with recorded_context(browser, real_site.base, viewport=PHONE, color_scheme="dark",
                          is_mobile=True, has_touch=True) as (context, visits):
        for rel in real_site.pages:
            page, record = visit(context, visits, real_site.url(rel), quiet=False)
            problems += sideways_scroll(page) + serious_accessibility_violations(page)
            page.wait_for_load_state("networkidle")
            problems += record.problems()
            page.close()
    assert not problems, "\n".join(problems)
