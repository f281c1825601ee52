"""Ties as a reader follows them (question_pages/render/ties.py): a mark after a sentence leads to
the output line that proves it, highlighted, by mouse and by keyboard, and into a folded output;
a source mark leads to the line of the release's source."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from .gates import DESKTOP
from .sites import Site

_TARGET = """() => {
  const id = decodeURIComponent(location.hash.slice(1));
  const line = id ? document.getElementById(id) : null;
  if (!line) return null;
  const box = line.getBoundingClientRect();
  const style = getComputedStyle(line);
  return {id, text: line.textContent, matches: line.matches(':target'),
          background: style.backgroundColor, inView: box.top >= 0 && box.bottom <= innerHeight,
          hidden: line.closest('details:not([open])') !== null};
}"""
_PLAIN = """(id) => getComputedStyle(document.getElementById(id)).backgroundColor"""


def _opened(browser: Browser, site: Site, path: str) -> tuple[Page, object]:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(site.base + path, wait_until="load")
    return page, context


def _shows_its_line(page: Page, href: str, text: str) -> None:
    page.wait_for_function("(h) => location.hash === h", arg=href)
    target = page.evaluate(_TARGET)
    assert target is not None, f"no element for {href}"
    assert text in target["text"] and target["matches"] and not target["hidden"], target
    assert target["inView"], target
    assert target["background"] not in ("rgba(0, 0, 0, 0)", "transparent"), target


def test_a_mark_leads_to_its_output_line_by_mouse_and_by_keyboard(fixture_site: Site,
                                                                  browser: Browser) -> None:
    page, context = _opened(browser, fixture_site, "export/good-page/")
    try:
        mark = page.locator("#short-answer ~ ul a.tie-out").nth(1)
        href = mark.get_attribute("href") or ""
        assert re.fullmatch(r"#out-export-fixture-tensor-cpu-out-L\d+", href), href
        label = mark.get_attribute("aria-label") or ""
        assert "CPU output of snippets/export/fixture_tensor.py" in label
        line = href[1:]
        # Before it is followed, the tied line looks like the others.
        assert page.evaluate(_PLAIN, line) in ("rgba(0, 0, 0, 0)", "transparent")
        mark.click()
        _shows_its_line(page, href, "<script>alert(1)</script>")
        # By keyboard: back to the top, focus the mark, Enter.
        page.goto(fixture_site.base + "export/good-page/", wait_until="load")
        mark = page.locator("#short-answer ~ ul a.tie-out").nth(1)
        mark.focus()
        assert page.evaluate("() => document.activeElement.classList.contains('tie')")
        page.keyboard.press("Enter")
        _shows_its_line(page, href, "<script>alert(1)</script>")
    finally:
        context.close()  # type: ignore[attr-defined]


def test_a_mark_opens_the_folded_output_its_line_is_in(fixture_site: Site, browser: Browser) -> None:
    """other-page's follow-up is tied to a line the page folds away (torch's debugging hint):
    the mark leads into the full output, which opens."""
    page, context = _opened(browser, fixture_site, "export/other-page/")
    try:
        page.locator("details.question summary").first.click()  # the reader opens the follow-up
        mark = page.locator("details.question a.tie-out").first
        href = mark.get_attribute("href") or ""
        assert href.startswith("#out-export-fixture-folded-cpu-full-L"), href
        mark.click()
        _shows_its_line(page, href, "For more debugging help")
    finally:
        context.close()  # type: ignore[attr-defined]


def test_a_source_mark_links_the_release_line(fixture_site: Site, browser: Browser) -> None:
    page, context = _opened(browser, fixture_site, "export/good-page/")
    try:
        mark = page.locator("a.tie-src").first
        href = mark.get_attribute("href") or ""
        assert re.fullmatch(r"https://github\.com/pytorch/pytorch/blob/v2\.13\.0/torch/nn/modules/"
                            r"module\.py#L(\d+)-L\1", href), href
        number = int(href.rsplit("#L", 1)[1].split("-")[0])
        from torch.nn.modules import module

        source = open(module.__file__, encoding="utf-8").read().split("\n")
        assert source[number - 1].startswith("class Module:")
        assert "torch 2.13.0 source" in (mark.get_attribute("aria-label") or "")
    finally:
        context.close()  # type: ignore[attr-defined]
