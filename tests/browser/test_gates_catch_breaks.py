"""Each gate fails on a page that breaks it, and only there.

The broken site is the fixture site plus one page per break (conftest.BROKEN_PAGES). A gate that
passed the real site but also passed these pages would prove nothing; one that flagged the clean
pages too would be noise.
"""

from __future__ import annotations

from playwright.sync_api import Browser

from .gates import (
    DESKTOP,
    PHONE,
    _axe,
    recorded_context,
    serious_accessibility_violations,
    sideways_scroll,
    visit,
)
from .links import broken_links
from .sites import BROKEN_PAGES, Site
from .tour import DESKTOP_LIGHT, tour


def _url(name: str) -> str:
    return name.removesuffix(".md") + "/"


def test_the_broken_site_has_the_clean_pages_and_one_page_per_break(broken_site: Site) -> None:
    assert {_url(name) for name in BROKEN_PAGES} <= set(broken_site.pages)
    assert "export/good-page/" in broken_site.pages


def test_a_script_from_another_host_is_caught(broken_site: Site, browser: Browser) -> None:
    with recorded_context(browser, broken_site.base, viewport=DESKTOP) as (context, visits):
        _, clean = visit(context, visits, broken_site.url("export/good-page/"))
        _, broken = visit(context, visits, broken_site.url(_url("broken-external-script.md")))
    assert clean.problems() == []
    assert broken.foreign_requests == ["https://cdn.jsdelivr.net/npm/chart.js@4/dist/chart.umd.min.js"]
    assert any("request to another host: https://cdn.jsdelivr.net/" in p for p in broken.problems())


def test_a_console_error_is_caught(broken_site: Site, browser: Browser) -> None:
    with recorded_context(browser, broken_site.base, viewport=DESKTOP) as (context, visits):
        _, broken = visit(context, visits, broken_site.url(_url("broken-console.md")))
    assert broken.console_errors == ["broken on purpose"]


def test_a_broken_anchor_is_caught(broken_site: Site) -> None:
    """A link in raw HTML, which `mkdocs build --strict` does not check (the build passed)."""
    problems = broken_links(broken_site.dir)
    assert len(problems) == 1, problems
    assert problems[0].startswith("broken-anchor/index.html: ")
    assert "export/good-page#no-such-section (Cannot find fragment)" in problems[0]


def test_a_missing_alt_text_is_caught(broken_site: Site, browser: Browser) -> None:
    with recorded_context(browser, broken_site.base, viewport=DESKTOP) as (context, visits):
        clean, _ = visit(context, visits, broken_site.url("export/good-page/"))
        broken, _ = visit(context, visits, broken_site.url(_url("broken-alt.md")))
        assert serious_accessibility_violations(clean) == []
        found = serious_accessibility_violations(broken)
    assert len(found) == 1 and ": image-alt (critical): " in found[0], found


_FADING_IN = """<!doctype html><html lang="en"><head><title>fade</title><style>
  button { color: #000; background: #fff; opacity: 0; transition: opacity 1.5s linear; }
  button.shown { opacity: 1; }
  .low { color: #bbb; background: #fff; }
</style></head><body><main><button id="fade">Back to top</button>
<p class="low" hidden>Low contrast</p></main></body></html>"""


def test_a_fade_is_measured_once_it_has_ended_and_low_contrast_is_still_caught(
        browser: Browser) -> None:
    """A button fading in (as Material's back-to-top does after a click scrolls the page) is read
    by axe at its blended colour: CI failed a page on the button at a fraction of its opacity. The
    gate measures what the reader reads once the fade has ended, and still catches text that is
    low in contrast when it is still."""
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[arg-type]  # a ViewportSize
    try:
        page.set_content(_FADING_IN)
        page.evaluate("() => { document.body.offsetWidth; "
                      "document.getElementById('fade').classList.add('shown'); }")
        page.wait_for_function("() => Number(getComputedStyle(document.getElementById('fade'))"
                               ".opacity) > 0.2")
        mid_fade = _axe.run(page).response["violations"]
        assert "color-contrast" in {v["id"] for v in mid_fade}, "the fade ended before axe ran"
        assert serious_accessibility_violations(page) == []
        page.evaluate("() => { document.querySelector('.low').hidden = false; }")
        found = serious_accessibility_violations(page)
        assert len(found) == 1 and ": color-contrast (serious): " in found[0], found
    finally:
        page.close()


def test_a_page_wider_than_a_phone_is_caught(broken_site: Site, browser: Browser) -> None:
    with recorded_context(browser, broken_site.base, viewport=PHONE) as (context, visits):
        clean, _ = visit(context, visits, broken_site.url("export/good-page/"))
        broken, _ = visit(context, visits, broken_site.url(_url("broken-wide.md")))
        assert sideways_scroll(clean) == []
        found = sideways_scroll(broken)
    assert len(found) == 1 and "scrolls sideways at 360px" in found[0], found


def test_the_desktop_tour_narrows_each_page_and_catches_the_wide_one(broken_site: Site,
                                                                      browser: Browser) -> None:
    """The tour that takes every page loads it on a desktop and then narrows the window to a
    phone's width (tour.DESKTOP_LIGHT): the page wider than a phone is caught there too, and the
    clean page is not."""
    wide = broken_site.url(_url("broken-wide.md"))
    problems = tour(browser, broken_site, DESKTOP_LIGHT, ["export/good-page/", _url("broken-wide.md")],
                    ())
    sideways = [problem for problem in problems if "scrolls sideways" in problem]
    assert len(sideways) == 1 and sideways[0].startswith(f"{wide}: scrolls sideways at 360px"), problems
