"""Syntax colours as a reader sees them: the build leaves code as plain text and code-colours.js
paints each token group with a CSS Custom Highlight (question_pages/render/code_colours.py). axe cannot
see highlight colours, so this checks what it used to check on the token spans (each group's
contrast against the code background, AA in both schemes) and that the colours are really on the
screen, read from screenshot pixels, with the right text under them."""

from __future__ import annotations

import base64
import keyword

import pytest
from playwright.sync_api import Browser, Page

from .gates import DESKTOP, PHONE, recorded_context, visit
from .sites import Site

GROUPS = ["keyword", "string", "special", "number", "comment", "constant", "function", "variable",
          "generic", "operator", "punctuation"]

# Each group's colour, resolved on a code block and laid over the code background (a colour with
# alpha is seen blended), and the background itself, as [r, g, b].
_COLOURS = """(code, groups) => {
  const probe = document.createElement("span");
  code.appendChild(probe);
  const rgba = value => value.match(/[\\d.]+/g).map(Number);
  let painted = code;  // the nearest element with a background: Material paints it on the <code>
  while (rgba(getComputedStyle(painted).backgroundColor)[3] === 0) painted = painted.parentElement;
  const background = rgba(getComputedStyle(painted).backgroundColor).slice(0, 3);
  const out = {background};
  for (const group of groups) {
    probe.style.color = `var(--md-code-hl-${group}-color)`;
    const [r, g, b, a = 1] = rgba(getComputedStyle(probe).color);
    out[group] = [r, g, b].map((c, i) => c * a + background[i] * (1 - a));
  }
  probe.remove();
  return out;
}"""

# Each painted range's group and text, in document order, as far as the browser has them.
_RANGES = """() => {
  const out = [];
  CSS.highlights.forEach((highlight, name) => {
    for (const range of highlight) {
      const live = document.createRange();
      live.setStart(range.startContainer, range.startOffset);
      live.setEnd(range.endContainer, range.endOffset);
      out.push([name.replace("code-", ""), live.toString()]);
    }
  });
  return out;
}"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _pixels(page: Page, png: bytes) -> list[list[int]]:
    """A screenshot's pixels as [r, g, b], decoded by the browser's own canvas."""
    return page.evaluate("""async data => {
      const image = new Image();
      image.src = "data:image/png;base64," + data;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width; canvas.height = image.height;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      const bytes = context.getImageData(0, 0, image.width, image.height).data;
      const out = [];
      for (let i = 0; i < bytes.length; i += 4) out.push([bytes[i], bytes[i + 1], bytes[i + 2]]);
      return out;
    }""", base64.b64encode(png).decode())


def _near(pixels: list[list[int]], rgb: list[float], within: float = 24) -> int:
    return sum(1 for p in pixels if sum((p[i] - rgb[i]) ** 2 for i in range(3)) ** 0.5 <= within)


def _first_range_clip(page: Page, group: str) -> dict[str, float]:
    """Scroll the first range of `group` that sits in an open code block into view, and give its
    box on the screen (the first one wholly on the screen). A token of two or more characters is
    preferred (more pixels to count); a page whose numbers are all single digits (the heaviest
    page changes as the bank grows) falls back to one character."""
    return page.evaluate("""group => {
      for (const shortest of [2, 1]) for (const range of CSS.highlights.get("code-" + group) || []) {
        const live = document.createRange();
        live.setStart(range.startContainer, range.startOffset);
        live.setEnd(range.endContainer, range.endOffset);
        const box = live.getBoundingClientRect();
        if (box.width < 4 || live.toString().trim().length < shortest) continue;
        range.startContainer.parentElement.closest("pre").scrollIntoView({block: "center"});
        const seen = live.getBoundingClientRect();
        // On a phone a token far along a long line is scrolled out of its block, off the screen.
        if (seen.width < 4 || seen.top < 60 || seen.left < 0 || seen.right > innerWidth
            || seen.bottom > innerHeight) continue;
        return {x: seen.left, y: seen.top, width: seen.width, height: seen.height};
      }
      return null;
    }""", group)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_code_is_coloured_as_materials_token_spans_were(real_site: Site, browser: Browser,
                                                        scheme: str) -> None:
    viewport = DESKTOP if scheme == "light" else PHONE
    rel = real_site.heaviest_question()
    with recorded_context(browser, real_site.base, viewport=viewport,
                          color_scheme=scheme) as (context, visits):
        page = visit(context, visits, real_site.url(rel))[0]
        # The tokens are no longer elements: the page's code has no span but a highlighted line.
        assert page.locator("pre code span:not(.hll)").count() == 0
        ranges = page.evaluate(_RANGES)
        groups = {group for group, _ in ranges}
        assert {"keyword", "string", "number", "comment", "punctuation"} <= groups, groups
        words = [text for group, text in ranges if group == "keyword"]
        assert all(keyword.iskeyword(w) or w.startswith("@") for w in words), words[:20]
        # Comments, and docstrings (Pygments' String.Doc, which Material colours as a comment; a
        # docstring's later lines are ranges of their own): no code is coloured as a comment.
        comments = [text.strip() for group, text in ranges if group == "comment"]
        assert any(text.startswith("#") for text in comments), comments[:10]
        in_docstring = False
        for text in comments:
            starts = text.lstrip("rbuRBU").startswith(('"""', "'''"))
            assert text.startswith("#") or starts or in_docstring, (text, comments[:10])
            if starts or in_docstring:
                quotes = text.count('"""') + text.count("'''")
                in_docstring = (int(in_docstring) + quotes) % 2 == 1

        code = page.locator("section.snippet pre code").first
        colours = code.evaluate(_COLOURS, GROUPS)
        background = colours["background"]
        weak = {g: round(contrast(colours[g], background), 2) for g in GROUPS
                if contrast(colours[g], background) < 4.5}
        assert not weak, f"{scheme}: token colours under 4.5:1 on the code background: {weak}"

        # On the screen: a keyword, a string and a number show their own colour, and lose it
        # when the highlights are taken away (so it was the highlight that painted it).
        for group in ("keyword", "string", "number"):
            clip = _first_range_clip(page, group)
            assert clip, f"no visible {group} in {rel}"
            coloured = _near(_pixels(page, page.screenshot(clip=clip)), colours[group])
            saved = page.evaluate("""group => { const h = CSS.highlights.get("code-" + group);
                                      CSS.highlights.delete("code-" + group); window.__saved = h;
                                      return true; }""", group)
            plain = _near(_pixels(page, page.screenshot(clip=clip)), colours[group])
            page.evaluate("group => CSS.highlights.set('code-' + group, window.__saved)", group)
            assert saved and coloured >= 3 and plain < coloured / 4, (
                f"{scheme}: {group} at {clip}: {coloured} pixels of its colour, {plain} without "
                "the highlight")
        problems = [problem for visit_ in visits for problem in visit_.problems()]
        assert not problems, "\n".join(problems)


def test_without_javascript_the_code_is_all_there(real_site: Site, browser: Browser) -> None:
    """The colours are lost without JavaScript; the code's text is not."""
    rel = real_site.heaviest_question()
    with recorded_context(browser, real_site.base, viewport=DESKTOP,
                          java_script_enabled=False) as (context, visits):
        page = visit(context, visits, real_site.url(rel))[0]
        text = page.locator("section.snippet pre code").first.inner_text()
        assert "import" in text and "print(" in text, text[:200]
