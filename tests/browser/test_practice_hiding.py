"""While a self-test runs, nothing that answers the question is seen or reached by Tab, on every
question page of the real site, at a desktop and a phone width.

What "answers the question" is comes from the page itself before practising: the text of every
paragraph, list item, code block and table cell under the sections a self-test must hide (the
short answer, basics, solid answer, code and its outputs, the Go deeper tier notes, the explainer
and its folds, the follow-ups' answers, the red flags, sources and related questions). After the
Practise button, that text must be absent from what the browser renders (`innerText` of the whole
page, which leaves out what is not displayed), and none of the focusable things in those sections
may take focus. The check that the text is seen before practising keeps the test honest: it proves
the same texts are found when they are on screen.

The pages are visited in one browser page per width, one URL after the other: a new page per
question would cost more than the checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .sites import Site

WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# The sections a self-test hides, by their anchors (scripts/question_pages/format/model.py ANCHORS).
ANSWER_SECTIONS = ["short-answer", "basics", "solid-answer", "code", "go-deeper", "explainer",
                   "follow-ups", "red-flags", "sources", "related-questions"]
# Hidden, but not looked for as text: the related questions' titles are in the navigation too.
NOT_TEXT = ["related-questions"]
# Shown on a page before practising, so the texts of these must be found in what is rendered then.
SHOWN_BEFORE = ["short-answer", "basics", "solid-answer", "red-flags"]
MIN_CHARS = 30  # shorter texts ("Junior", a number) could be on the page for other reasons

# Marks the answer sections' nodes (in a page variable, not the DOM) and returns their texts, per
# section: paragraphs, list items without nested lists, code, table cells, whatever is folded.
COLLECT = """([anchors, minChars]) => {
  const norm = (text) => text.replace(/\\s+/g, " ").trim();
  const sections = {};
  window.__answerNodes = [];
  for (const anchor of anchors) {
    const heading = document.getElementById(anchor);
    if (!heading) continue;
    const nodes = [heading];
    for (let n = heading.nextElementSibling; n && n.tagName !== "H2"; n = n.nextElementSibling) nodes.push(n);
    window.__answerNodes.push(...nodes);
    const texts = [];
    for (const node of nodes) {
      const blocks = [node, ...node.querySelectorAll("p, li, pre, td, dd, blockquote")]
        .filter((b) => b.matches("p, li, pre, td, dd, blockquote") && !b.querySelector("ul, ol, p, pre"))
        .filter((b) => !b.closest("summary"));
      for (const block of blocks) {
        const text = norm(block.textContent);
        if (text.length >= minChars) texts.push(text);
      }
    }
    sections[anchor] = texts;
  }
  return sections;
}"""

RENDERED = "() => document.body.innerText.replace(/\\s+/g, ' ')"

# Every focusable thing inside the answer sections that takes focus and is in the Tab order.
FOCUSABLE = """() => {
  const selector = "a[href], button, input, select, textarea, summary, label, pre, code, " +
                   "[tabindex], [contenteditable]";
  const reached = [];
  for (const node of window.__answerNodes) {
    for (const el of [node, ...node.querySelectorAll(selector)]) {
      el.focus({ preventScroll: true });
      if (document.activeElement === el && el.tabIndex >= 0) {
        reached.push(el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 60));
      }
    }
  }
  document.activeElement && document.activeElement.blur();
  return reached;
}"""

INSIDE_ANSWERS = "() => window.__answerNodes.some((n) => n.contains(document.activeElement))"


@pytest.fixture(params=list(WIDTHS))
def width_page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=WIDTHS[request.param])
    try:
        yield context.new_page()
    finally:
        context.close()


def _shown_before(page: Page, sections: dict[str, list[str]], width: str) -> list[str]:
    before = page.evaluate(RENDERED)
    return [f"{width}: the test found no text of #{anchor} on the page before practising"
            for anchor in SHOWN_BEFORE if not any(text in before for text in sections.get(anchor, []))]


def _seen_while_practising(page: Page, sections: dict[str, list[str]], width: str) -> list[str]:
    after = page.evaluate(RENDERED)
    problems = []
    for anchor, texts in sections.items():
        if anchor in NOT_TEXT:
            continue
        seen = [text for text in texts if text in after]
        if seen:
            problems.append(f"{width}: #{anchor}: {len(seen)} of its {len(texts)} texts are shown, "
                            f"such as {seen[0][:80]!r}")
    return problems + [f"{width}: takes focus: {what}" for what in page.evaluate(FOCUSABLE)]


def leaks_on(page: Page, widths: tuple[str, ...] = ()) -> list[str]:
    """Start the self-test on the open page (twice where a second click is possible) and return
    what a reader could still see or Tab to of its answers, at the page's width and, with the
    window resized, at each of `widths` (before practising too: the texts looked for are on
    screen there, so their absence later means something)."""
    sections: dict[str, list[str]] = page.evaluate(COLLECT, [ANSWER_SECTIONS, MIN_CHARS])
    loaded = page.viewport_size
    problems = _shown_before(page, sections, "as loaded")
    for width in widths:
        page.set_viewport_size(WIDTHS[width])  # type: ignore[arg-type]  # a ViewportSize
        problems += _shown_before(page, sections, width)
    if loaded and widths:
        page.set_viewport_size(loaded)
    start = page.get_by_role("button", name="Practise this question")
    start.click()
    if start.is_visible():  # a second click must not open a second panel
        start.click()
    panels = page.get_by_role("button", name="Reveal the short answer").count()
    if panels != 1:
        problems.append(f"{panels} self-test panels are shown, not one")
    problems += _seen_while_practising(page, sections, "as loaded")
    for width in widths:
        page.set_viewport_size(WIDTHS[width])  # type: ignore[arg-type]
        problems += _seen_while_practising(page, sections, width)
    return problems


def test_nothing_that_answers_is_seen_or_focusable_on_any_question_page(real_site: Site,
                                                                         browser: Browser) -> None:
    """Every question page loaded once on a desktop, and checked at the desktop width and, with
    the window narrowed, at the phone's: CSS lays a narrowed page out as it lays out a phone's, and
    no script of the site reads the width at load. The next test and the Tab test load pages as a
    phone does."""
    context = browser.new_context(viewport=WIDTHS["desktop"])
    page = context.new_page()
    problems = []
    try:
        for rel in real_site.questions:
            page.goto(real_site.url(rel), wait_until="load")
            problems += [f"{rel}: {problem}" for problem in leaks_on(page, ("phone",))]
    finally:
        context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_a_page_loaded_on_a_phone_hides_what_a_narrowed_one_does(real_site: Site,
                                                                 browser: Browser) -> None:
    """The every-page check narrows a desktop page to the phone's width; here the first question
    of each topic is loaded on a phone from the start, and must hide as much."""
    context = browser.new_context(viewport=WIDTHS["phone"], is_mobile=True, has_touch=True)
    page = context.new_page()
    firsts = sorted({rel.split("/")[0]: rel for rel in reversed(real_site.questions)}.values())
    problems = []
    try:
        for rel in firsts:
            page.goto(real_site.url(rel), wait_until="load")
            problems += [f"{rel}: {problem}" for problem in leaks_on(page)]
    finally:
        context.close()
    assert len(firsts) >= 5, firsts
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_tab_never_reaches_an_answer_and_the_follow_ups_come_one_at_a_time(real_site: Site,
                                                                           width_page: Page) -> None:
    page = width_page
    page.goto(real_site.url("export/graph-signature/"), wait_until="load")
    sections: dict[str, list[str]] = page.evaluate(COLLECT, [ANSWER_SECTIONS, MIN_CHARS])
    follow_ups = page.locator("#follow-ups ~ details").count()
    page.get_by_role("button", name="Practise this question").click()
    # Tab round the whole page: focus goes through the header, navigation, panel and footer, and
    # never into an answer. It stops when it comes back to where it started.
    seen: list[str] = []
    for _ in range(400):
        page.keyboard.press("Tab")
        where = page.evaluate("() => { const a = document.activeElement; return a ? "
                              "a.tagName + '|' + (a.getAttribute('href') || '') + '|' + "
                              "a.textContent.trim().slice(0, 40) : '' }")
        assert not page.evaluate(INSIDE_ANSWERS), f"Tab reached an answer: {where}"
        if where in seen[:1]:
            break
        seen.append(where)
    assert any("Reveal the short answer" in where for where in seen), seen
    # Rated, then the follow-ups one at a time: only the one being practised shows its answer.
    page.get_by_role("button", name="Reveal the short answer").click()
    page.locator(".practice-panel").get_by_role("button", name="Got it", exact=True).click()
    page.get_by_role("button", name=re.compile("^Practise the ")).click()
    page.get_by_role("button", name="Reveal its answer").click()
    expect(page.locator(".practice-followups details[open]")).to_have_count(1)
    shown = page.locator(".practice-followups details").evaluate(
        "d => d.textContent.replace(/\\s+/g, ' ')")
    rendered = page.evaluate(RENDERED)
    # The short answer is in the panel by then, as the checklist the reader ticked.
    others = [text for anchor, texts in sections.items() for text in texts
              if anchor not in [*NOT_TEXT, "short-answer"] and text in rendered and text not in shown]
    assert not others, f"while practising a follow-up, other answers are shown: {others[:3]}"
    # Stopping shows the whole page again, with every follow-up in its place.
    page.get_by_role("button", name="Stop practising and show the page").click()
    rendered = page.evaluate(RENDERED)
    for anchor in SHOWN_BEFORE:
        assert any(text in rendered for text in sections[anchor]), f"#{anchor} is not shown again"
    expect(page.locator("#follow-ups ~ details:visible")).to_have_count(follow_ups)


# Before each frame (a requestAnimationFrame callback runs right before the frame is drawn),
# whether any part of the short answer is drawn, until the self-test has begun and a few frames
# after. Installed before the page's own scripts, so the first frames are seen.
FIRST_FRAMES = """(() => {
  window.__frames = [];
  const drawn = () => {
    const heading = document.getElementById("short-answer");
    if (!heading) return "not parsed";
    const nodes = [heading];
    for (let n = heading.nextElementSibling; n && n.tagName !== "H2"; n = n.nextElementSibling) nodes.push(n);
    return nodes.some((n) => n.getClientRects().length > 0 && n.checkVisibility({ visibilityProperty: true }))
      ? "shown" : "hidden";
  };
  let after = 0;
  const probe = () => {
    window.__frames.push(drawn());
    if (document.documentElement.dataset.practising) after++;
    if (after < 5 && window.__frames.length < 600) requestAnimationFrame(probe);
    else window.__framesDone = true;
  };
  requestAnimationFrame(probe);
})();"""


def test_arriving_at_practice_never_draws_the_short_answer(real_site: Site, browser: Browser) -> None:
    """Issue 39, 7: a link to #practice drew the page with its short answer for a moment before
    the self-test (a module loaded after the first frames) hid it."""
    context = browser.new_context(viewport=WIDTHS["desktop"])
    try:
        context.add_init_script(FIRST_FRAMES)
        page = context.new_page()
        for rel in ("export/graph-signature/", "compile/graph-breaks/"):
            page.goto(real_site.url(rel) + "#practice", wait_until="load")
            expect(page.locator(".practice-panel")).to_be_visible()
            # Every frame up to the fifth after the self-test took over (or the 600th), however
            # slowly a loaded machine draws them.
            page.wait_for_function("() => window.__framesDone === true")
            frames: list[str] = page.evaluate("() => window.__frames")
            assert "shown" not in frames, (f"{rel}: the short answer was drawn in frames "
                                           f"{[i for i, f in enumerate(frames) if f == 'shown'][:10]} "
                                           f"of {len(frames)}")
            assert "hidden" in frames, frames
            # Without #practice the page is drawn as always (the probe sees the short answer).
            page.goto(real_site.url(rel), wait_until="load")
            page.wait_for_function("() => window.__frames.includes('shown')")
    finally:
        context.close()


def _visible_results(page: Page) -> list[dict[str, str]]:
    return page.locator(".md-search-result__item > .md-search-result__link").evaluate_all(
        "els => els.map(e => ({href: e.href, text: e.innerText.replace(/\\s+/g, ' ')}))")


def _words_shown(text: str, answers: list[str], run: int = 5) -> list[str]:
    """The runs of `run` words of the answer texts that `text` shows."""
    shown = []
    for answer in answers:
        words = re.sub(r"[^\w\s]", " ", answer).split()
        plain = " ".join(re.sub(r"[^\w\s]", " ", text).split())
        shown += [" ".join(words[i:i + run]) for i in range(len(words) - run + 1)
                  if " ".join(words[i:i + run]) in plain]
    return shown


def test_search_while_practising_shows_none_of_the_hidden_answers_of_the_page(
        real_site: Site, browser: Browser) -> None:
    """Issue 39, 7: the header's search showed the practised page's own short answer in its
    result's passage. While practising, that page's result keeps its title and link, and says its
    passage is hidden; other pages' results are as always (a reader may look something up)."""
    context = browser.new_context(viewport=WIDTHS["desktop"])
    try:
        page = context.new_page()
        rel = "export/graph-signature/"
        page.goto(real_site.url(rel), wait_until="load")
        sections: dict[str, list[str]] = page.evaluate(COLLECT, [ANSWER_SECTIONS, MIN_CHARS])
        answers = [text for anchor, texts in sections.items() if anchor not in NOT_TEXT for text in texts]
        # Words of one of its short answer's points, as a reader who half remembers it types them.
        query = "Lifting makes the graph a pure function"
        assert any(query in text for text in sections["short-answer"]), sections["short-answer"]
        own = urlsplit(real_site.url(rel)).path

        def search() -> list[dict[str, str]]:
            box = page.locator(".md-search__input")
            box.click()
            box.fill("")
            box.press_sequentially(query)
            expect(page.locator(".md-search-result__meta")).to_contain_text("matching", timeout=15000)
            expect(page.locator(f'.md-search-result__link[href*="{own}"]').first).to_be_visible()
            return [r for r in _visible_results(page) if urlsplit(r["href"]).path == own]

        # Not practising: the query finds the page by its short answer, and shows it.
        before = search()
        assert any(_words_shown(r["text"], answers) for r in before), (query, before)
        page.keyboard.press("Escape")
        page.get_by_role("button", name="Practise this question").click()
        expect(page.locator(".practice-panel")).to_be_visible()
        during = search()
        leaks = [shown for r in during for shown in _words_shown(r["text"], answers)]
        assert not leaks, f"while practising, the search shows the page's answers: {leaks[:3]}"
        assert any("hidden while you practise" in r["text"] for r in during), during
    finally:
        context.close()
