"""The light/dark switch as a reader meets it: the colours on the screen follow the system's
preference until the reader switches, the switch works by mouse and keyboard, and the choice is
still there after a reload and on the next page. The switch is ours (docs/assets/javascripts/
palette.js, written inline after the header's switch), not Material's palette component, which
restyled the whole page three times at start-up: the last test holds that nothing rewrites the
page's colours after it is parsed."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Browser, Page

from .gates import DESKTOP, PHONE, recorded_context, visit
from .sites import Site
from .test_code_colours import _luminance

# What the reader sees: the page's background, and the switch buttons that are on the screen.
_SEEN = """() => {
  const rgb = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const switches = [...document.querySelectorAll("header form.md-header__option label")]
    .filter(label => label.getBoundingClientRect().width > 0
                     && getComputedStyle(label).visibility === "visible")
    .map(label => label.title);
  const meta = name => (document.querySelector(`meta[name="${name}"]`) || {}).content || null;
  return {background: rgb, switches, colorScheme: meta("color-scheme"), themeColor: meta("theme-color")};
}"""


def _seen(page: Page) -> dict[str, object]:
    return page.evaluate(_SEEN)


def _is_dark(seen: dict[str, object]) -> bool:
    background = seen["background"]
    assert isinstance(background, list)
    return _luminance(background) < 0.1


def _is_light(seen: dict[str, object]) -> bool:
    background = seen["background"]
    assert isinstance(background, list)
    return _luminance(background) > 0.8


def _seen_once(page: Page, wanted: Callable[[dict[str, object]], bool],
               timeout_s: float = 5.0) -> dict[str, object]:
    """What the reader sees once `wanted` holds of it, or when the time is up (a change of the
    system's preference reaches the page as an event, later on a busy machine: 100 ms was seen to
    be too short in a full test run)."""
    deadline = time.monotonic() + timeout_s
    seen = _seen(page)
    while not wanted(seen) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        seen = _seen(page)
    return seen


def test_the_system_preference_decides_until_the_reader_switches(real_site: Site, browser: Browser) -> None:
    rel = real_site.heaviest_question()
    for scheme, viewport in (("light", DESKTOP), ("dark", PHONE)):
        with recorded_context(browser, real_site.base, viewport=viewport,
                              color_scheme=scheme) as (context, visits):
            page, record = visit(context, visits, real_site.url(rel))
            seen = _seen(page)
            if scheme == "light":
                assert _is_light(seen) and seen["switches"] == ["Switch to dark mode"], seen
                assert seen["colorScheme"] in ("normal", "light"), seen
            else:
                assert _is_dark(seen) and seen["switches"] == ["Switch to light mode"], seen
                assert seen["colorScheme"] == "dark", seen
            assert str(seen["themeColor"]).startswith("#") and len(str(seen["themeColor"])) == 7, seen
            # Nothing is stored until the reader chooses: the site keeps following the system.
            assert page.evaluate("Object.keys(localStorage).filter(k => k.endsWith('__palette'))") == []
            page.emulate_media(color_scheme="light" if scheme == "dark" else "dark")
            follows = _is_light if scheme == "dark" else _is_dark
            flipped = _seen_once(page, follows)
            assert follows(flipped), flipped
            assert not record.problems(), record.problems()


def test_a_click_switches_and_the_choice_stays(real_site: Site, browser: Browser) -> None:
    rel = real_site.heaviest_question()
    with recorded_context(browser, real_site.base, viewport=DESKTOP,
                          color_scheme="light") as (context, visits):
        page, record = visit(context, visits, real_site.url(rel))
        page.get_by_title("Switch to dark mode").click()
        seen = _seen(page)
        assert _is_dark(seen) and seen["switches"] == ["Switch to light mode"], seen
        assert seen["colorScheme"] == "dark", seen
        page.reload(wait_until="load")
        assert _is_dark(_seen(page)), "the dark palette was not kept over a reload"
        # The reader's choice outranks the system's preference, also when that changes.
        page.emulate_media(color_scheme="dark")
        page.emulate_media(color_scheme="light")
        page.wait_for_timeout(100)
        assert _is_dark(_seen(page)), "a change of the system's preference undid the reader's choice"
        other, _ = visit(context, visits, real_site.url("questions/"))
        assert _is_dark(_seen(other)), "the choice did not carry to the next page"
        other.get_by_title("Switch to light mode").click()
        assert _is_light(_seen(other)) and _seen(other)["switches"] == ["Switch to dark mode"]
        assert not record.problems(), record.problems()


def test_the_switch_works_from_the_keyboard(real_site: Site, browser: Browser) -> None:
    with recorded_context(browser, real_site.base, viewport=PHONE,
                          color_scheme="light") as (context, visits):
        page, _ = visit(context, visits, real_site.url(""))
        # Focus on the switch's radio (what Tab reaches; it carries the label's name for a screen reader).
        page.focus("#__palette_0")
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Switch to dark mode"
        page.keyboard.press("Enter")
        assert _is_dark(_seen(page)), "Enter on the switch did not change the palette"
        assert page.evaluate("document.activeElement.id") == "__palette_1"
        page.keyboard.press("Enter")
        assert _is_light(_seen(page)), "Enter again did not switch back"
        page.keyboard.press("ArrowRight")  # the radios' own keys move to the other option
        assert _is_dark(_seen(page)), "the arrow key did not change the palette"


def test_without_javascript_there_is_no_switch_and_the_page_is_light(real_site: Site,
                                                                     browser: Browser) -> None:
    with recorded_context(browser, real_site.base, viewport=DESKTOP, color_scheme="dark",
                          java_script_enabled=False) as (context, visits):
        page, _ = visit(context, visits, real_site.url(real_site.heaviest_question()))
        seen = _seen(page)
        assert seen["switches"] == [] and _is_light(seen), seen


# Every write to the body's colour attributes from the first byte of the page on.
_WATCH = """() => {
  window.__paletteWrites = [];
  new MutationObserver(records => {
    const parsed = !!document.querySelector(".md-content");
    for (const r of records) window.__paletteWrites.push([r.attributeName, parsed]);
  }).observe(document, {subtree: true, attributes: true,
                        attributeFilter: ["data-md-color-scheme", "data-md-color-primary",
                                          "data-md-color-accent", "data-md-color-media",
                                          "data-md-color-switching"]});
}"""


def test_the_palette_is_set_while_the_page_is_parsed_and_never_again(real_site: Site,
                                                                     browser: Browser) -> None:
    """A write to the body's colour attributes restyles every element of a long page; Material's
    component made three after the page had loaded. With a dark preference the palette changes
    once, while only the header is parsed (with a light one only its media attribute is added)."""
    rel = real_site.heaviest_question()
    for scheme, most in (("light", 1), ("dark", 4)):
        with recorded_context(browser, real_site.base, viewport=DESKTOP,
                              color_scheme=scheme) as (context, visits):
            context.add_init_script(f"({_WATCH})()")
            page, _ = visit(context, visits, real_site.url(rel))
            page.wait_for_timeout(500)
            writes = page.evaluate("window.__paletteWrites")
            # Each write as [attribute, whether the page's content was parsed by then].
            assert len(writes) <= most and not any(content for _, content in writes), (
                f"{scheme}: the page's colours were written after its content was parsed: {writes}")
            header_first = page.evaluate("""() => {
              const script = [...document.scripts].find(s => s.textContent.includes("form[data-palette]"));
              return !!script && !!script.closest("header")
                && script.compareDocumentPosition(document.querySelector("main"))
                   === Node.DOCUMENT_POSITION_FOLLOWING;
            }""")
            assert header_first, "the palette script is not in the header, before the content"
