"""The question index as a reader and a guide author use it, and the reading aids of a question
page, in Chromium on the repository's own site: the sort's first direction, a view kept in the URL,
the "no match" message, the index on a phone, the strip under a question's title, and underscores
that stay visible under a link's underline."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .gates import DESKTOP, recorded_context, visit
from .index_page import show_every_row, total_questions, wait_for_every_row
from .sites import Site

PHONE_390 = {"width": 390, "height": 844}  # the width the reader tried the index at


@pytest.fixture
def open_at(real_site: Site, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Open a page of the real site at a viewport; fail if it logged an error or asked another host."""
    contexts = []

    def open_page(rel: str, viewport: dict[str, int] = DESKTOP) -> Page:
        manager = recorded_context(browser, real_site.base, viewport=viewport)
        context, visits = manager.__enter__()
        contexts.append((manager, visits))
        return visit(context, visits, real_site.url(rel))[0]

    yield open_page
    for manager, visits in contexts:
        problems = [problem for record in visits for problem in record.problems()]
        manager.__exit__(None, None, None)
        assert not problems, "\n".join(problems)


def _column(page: Page, attribute: str) -> list[int]:
    return [int(v) for v in page.locator(".question-table tbody tr:visible").evaluate_all(
        f"rows => rows.map(r => r.dataset.{attribute})")]


def test_first_click_sorts_the_useful_way_and_the_url_keeps_it(open_at: Callable[..., Page]) -> None:
    page = open_at("questions/")
    frequency = page.locator('button[data-sort="frequency"]')
    frequency.click()
    total = wait_for_every_row(page)  # a sort covers every question, not only the served rows
    expect(page.locator(".question-count")).to_have_text(f"{total} of {total} questions")
    values = _column(page, "frequency")
    assert len(values) == total
    assert values == sorted(values, reverse=True) and values[0] > values[-1], values
    expect(page.locator("th", has=frequency)).to_have_attribute("aria-sort", "descending")
    assert "sort=frequency" in page.url and "order=" not in page.url
    frequency.click()
    assert _column(page, "frequency") == sorted(values)
    assert "order=asc" in page.url
    page.locator('button[data-sort="importance"]').click()
    ranks = _column(page, "importanceRank")
    assert ranks == sorted(ranks) and ranks[0] == 0, "must know comes first"


def test_a_view_can_be_linked(open_at: Callable[..., Page], real_site: Site) -> None:
    page = open_at("questions/?level=senior&importance=must+know&sort=frequency")
    expect(page.locator('select[data-filter="level"]')).to_have_value("senior")
    expect(page.locator('select[data-filter="importance"]')).to_have_value("must know")
    expect(page.locator("select[data-sort-by]")).to_have_value("frequency")
    wait_for_every_row(page)  # a linked view covers every question
    rows = page.locator(".question-table tbody tr:visible")
    wanted = page.locator('.question-table tbody tr[data-level="senior"][data-importance="must know"]')
    assert rows.count() == wanted.count() > 0
    values = _column(page, "frequency")
    assert values == sorted(values, reverse=True)
    # Changing a filter rewrites the link, so the reader can copy the view they see.
    page.locator('select[data-filter="topic"]').select_option("export")
    assert re.search(r"[?&]topic=export(&|$)", page.url) and "level=senior" in page.url


def test_no_match_says_so_and_offers_every_question(open_at: Callable[..., Page]) -> None:
    page = open_at("questions/")
    total = total_questions(page)
    empty = page.locator(".question-empty")
    expect(empty).to_be_hidden()
    page.locator('input[data-filter="text"]').fill("no question has this zqxj")
    expect(empty).to_be_visible()
    expect(empty).to_contain_text("No question matches these filters")
    expect(page.locator(".question-count")).to_have_text(f"0 of {total} questions")
    empty.get_by_role("button", name="Show every question").click()
    expect(page.locator(".question-table tbody tr:visible")).to_have_count(total)
    expect(empty).to_be_hidden()


CHARACTERS_PER_LINE = """el => {
  const style = getComputedStyle(el.querySelector("a") || el);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = el.textContent;
  return el.clientWidth / (ctx.measureText(text).width / text.length);
}"""


def test_the_index_serves_its_first_rows_and_finds_every_question(open_at: Callable[..., Page],
                                                                  real_site: Site) -> None:
    """A first visit gets the first rows in learning order, and says so; a search in the table
    finds a question the page did not serve, and "Show all" lists every one, without a reload."""
    page = open_at("questions/")
    rows = page.locator(".question-table tbody tr")
    total = total_questions(page)
    assert total == len(real_site.questions)
    served = rows.count()
    assert served < total, "the real bank is larger than the rows the index serves"
    expect(page.locator(".question-count")).to_have_text(f"The first {served} of {total} questions")
    more = page.locator(".question-more")
    expect(more).to_contain_text(f"The table starts with the first {served} of {total} questions")
    # The last question in learning order, which the page did not serve, found by its title.
    index = json.loads((real_site.dir / "questions.json").read_text(encoding="utf-8"))
    last = index["questions"][-1]["question"]
    assert not rows.filter(has_text=last).count()
    page.locator('input[data-filter="text"]').fill(last)
    expect(rows.filter(has_text=last).first).to_be_visible()
    expect(page.locator(".question-count")).not_to_contain_text("The first")
    page.locator('input[data-filter="text"]').fill("")
    expect(page.locator(".question-table tbody tr:visible")).to_have_count(total)
    expect(more).to_be_hidden()
    fresh = open_at("questions/")
    fresh.get_by_role("button", name=f"Show all {total} questions").click()
    expect(fresh.locator(".question-table tbody tr:visible")).to_have_count(total)
    # The keyboard goes on from the first row the reader had not seen.
    focused = fresh.evaluate("document.activeElement.closest('tr').dataset.learningRank")
    assert focused == str(served)
    assert show_every_row(fresh) == total


def test_the_index_reads_on_a_phone(open_at: Callable[..., Page]) -> None:
    page = open_at("questions/", PHONE_390)
    content = page.locator(".md-content__inner").bounding_box()
    cell = page.locator(".question-table tbody tr td.q").first
    box = cell.bounding_box()
    assert content and box
    # The question has the row to itself: most of the content's width, not a column of it.
    assert box["width"] >= 0.8 * content["width"], (box, content)
    per_line = cell.evaluate(CHARACTERS_PER_LINE)
    assert per_line >= 30, f"about {per_line:.0f} characters a line"
    # Sorting still works without the column headers.
    page.locator("select[data-sort-by]").select_option("frequency")
    wait_for_every_row(page)
    values = _column(page, "frequency")
    assert values == sorted(values, reverse=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_390["width"], f"the page scrolls sideways ({width} px)"


def test_the_strip_under_the_title_jumps_to_the_follow_ups(open_at: Callable[..., Page],
                                                           real_site: Site) -> None:
    page = open_at(real_site.heaviest_question())
    strip = page.get_by_role("navigation", name="On this page")
    expect(strip).to_be_visible()
    box = strip.bounding_box()
    assert box and box["y"] + box["height"] < DESKTOP["height"], "the strip is in the first screen"
    strip.get_by_role("link", name="Follow-ups").click()
    expect(page).to_have_url(re.compile(r"#follow-ups$"))
    heading = page.locator("#follow-ups").bounding_box()
    assert heading and 0 <= heading["y"] < DESKTOP["height"] / 2, heading


UNDERSCORE = """el => {
  const style = getComputedStyle(el);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const bottom = ctx.measureText("_").actualBoundingBoxDescent;
  return {offset: parseFloat(style.textUnderlineOffset), bottom: bottom, line: style.textDecorationLine};
}"""


def test_underscores_stay_visible_under_link_underlines(open_at: Callable[..., Page]) -> None:
    page = open_at("questions/")
    link = page.locator(".question-table a", has_text="_").first
    expect(link).to_be_visible()
    metrics = link.evaluate(UNDERSCORE)
    assert "underline" in metrics["line"]
    # Chromium draws a length offset from the baseline: the line must start below the underscore.
    assert metrics["offset"] > metrics["bottom"], metrics


FOLLOW_UPS_TOP = ("() => Math.round(document.getElementById('follow-ups').getBoundingClientRect().top"
                  " + scrollY)")
EXPLAINER_HEADINGS = """() => { const out = []; const top = document.getElementById('explainer');
  for (let n = top.nextElementSibling; n && n.tagName !== 'H2'; n = n.nextElementSibling) {
    if (n.tagName === 'H3') out.push(n.id); }
  return out; }"""


def test_the_explainer_folds_below_its_first_section(open_at: Callable[..., Page], real_site: Site,
                                                     browser: Browser) -> None:
    rel = real_site.heaviest_question()
    page = open_at(rel)
    anchors = page.evaluate(EXPLAINER_HEADINGS)
    assert len(anchors) >= 3 and all(anchors), anchors
    folds = page.locator("details.explainer-fold")
    assert folds.count() == len(anchors) - 1, "every section after the first is folded"
    for anchor in anchors[1:]:
        expect(page.locator(f"#{anchor} + details.explainer-fold")).not_to_have_attribute("open", "")
    folded_top = page.evaluate(FOLLOW_UPS_TOP)
    # A link to a folded section opens it, and only it.
    page.goto(real_site.url(rel) + f"#{anchors[2]}")
    expect(page.locator(f"#{anchors[2]} + details.explainer-fold")).to_have_attribute("open", "")
    expect(page.locator(f"#{anchors[1]} + details.explainer-fold")).not_to_have_attribute("open", "")
    page.get_by_role("button", name="Open every section of the explainer").click()
    expect(page.locator("details.explainer-fold:not([open])")).to_have_count(0)
    unfolded_top = page.evaluate(FOLLOW_UPS_TOP)
    assert folded_top < 0.85 * unfolded_top, (folded_top, unfolded_top)
    # Without JavaScript the folds are still there and open by click; the script's button is not.
    plain = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        without = plain.new_page()
        without.goto(real_site.url(rel))
        assert without.evaluate(EXPLAINER_HEADINGS) == anchors, "every explainer anchor stays"
        expect(without.locator(".explainer-all")).to_be_hidden()
        fold = without.locator(f"#{anchors[1]} + details.explainer-fold")
        fold.locator("summary").click()
        expect(fold).to_have_attribute("open", "")
        expect(without.locator(".practice-slot")).to_be_hidden()
    finally:
        plain.close()
