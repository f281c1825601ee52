"""What a reader does on the site, done in the browser: switch an output between devices, open and
close a follow-up, search for a word from a question's body (offline: Pagefind, loaded when the
box is used), and narrow the question index with its filters."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .gates import DESKTOP, plain_text, recorded_context, visit
from .index_page import show_every_row
from .sites import Site

WORD = re.compile(r"[a-z]{6,}")


@pytest.fixture
def page_of(site: Site, browser: Browser) -> Iterator[Callable[[str], Page]]:
    """Open a page of the site; on the way out, fail if it logged an error or asked another host."""
    with recorded_context(browser, site.base, viewport=DESKTOP) as (context, visits):
        def open_page(rel: str) -> Page:
            return visit(context, visits, site.url(rel))[0]

        yield open_page
        problems = [problem for record in visits for problem in record.problems()]
        assert not problems, "\n".join(problems)


def question_with_device_tabs(site: Site) -> str:
    """The first question page (in file order) that shows a snippet's output on CPU and CUDA."""
    for rel in site.questions:
        if ">CUDA</label>" in (site.dir / rel / "index.html").read_text(encoding="utf-8"):
            return rel
    raise AssertionError(f"no question page of {site.name} has CPU/CUDA output tabs")


def test_output_tabs_switch_between_devices(fixture_site: Site, browser: Browser) -> None:
    """On the fixture site, which has CUDA records made for the tests: the real site shows tabs
    only where a snippet has outputs on two devices."""
    with recorded_context(browser, fixture_site.base, viewport=DESKTOP) as (context, visits):
        page = visit(context, visits, fixture_site.url(question_with_device_tabs(fixture_site)))[0]
        _check_tabs(page)


def _check_tabs(page: Page) -> None:
    tabs = page.locator(".tabbed-set").filter(has=page.locator(".tabbed-labels > label",
                                                                has_text=re.compile(r"^CUDA$"))).first
    blocks = tabs.locator(":scope > .tabbed-content > .tabbed-block")
    cpu, cuda = (tabs.locator(".tabbed-labels > label", has_text=re.compile(f"^{name}$"))
                 for name in ("CPU", "CUDA"))
    expect(blocks.nth(0)).to_be_visible()
    expect(blocks.nth(1)).to_be_hidden()
    cuda.click()
    expect(blocks.nth(1)).to_be_visible()
    expect(blocks.nth(0)).to_be_hidden()
    cpu.click()
    expect(blocks.nth(0)).to_be_visible()
    expect(blocks.nth(1)).to_be_hidden()


def test_follow_ups_open_and_close(site: Site, page_of: Callable[[str], Page]) -> None:
    page = page_of(site.questions[0])
    follow_up = page.locator("#follow-ups ~ details").first
    answer = follow_up.locator(":scope > :not(summary)").first
    expect(follow_up).not_to_have_attribute("open", re.compile(".*"))
    expect(answer).to_be_hidden()
    follow_up.locator("summary").click()
    expect(follow_up).to_have_attribute("open", re.compile(".*"))
    expect(answer).to_be_visible()
    follow_up.locator("summary").click()
    expect(answer).to_be_hidden()


def _article_text(site: Site, rel: str) -> str:
    html = (site.dir / rel / "index.html").read_text(encoding="utf-8")
    return html.split('<article class="md-content__inner', 1)[1].split("</article>", 1)[0]


def distinctive_word(site: Site, rel: str) -> str:
    """A word of the question's Basics that is on as few other question pages as possible and not
    in any question, so that finding the page proves the search read its body."""
    pages = {page: set(WORD.findall(plain_text(_article_text(site, page)).lower()))
             for page in site.questions}
    titles = {word for page in site.questions
              for word in WORD.findall(plain_text(_article_text(site, page).split("</h1>")[0]).lower())}
    basics = _article_text(site, rel).split('id="basics"', 1)[1].split("<h2", 1)[0]
    candidates = set(WORD.findall(plain_text(basics).lower())) - titles
    assert candidates, f"no word of six letters or more in {rel}#basics"
    return min(candidates, key=lambda w: (sum(w in words for words in pages.values()), w))


def test_search_finds_a_question_by_a_word_from_its_body(site: Site, page_of: Callable[[str], Page]) -> None:
    target = site.questions[-1]
    word = distinctive_word(site, target)
    page = page_of("")
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially(word)
    hit = page.locator(f'.md-search-result__link[href*="{target}"]').first
    expect(hit, f"no search result for {word!r} links to {target}").to_be_visible(timeout=15_000)


def test_index_filters_narrow_the_table(site: Site, page_of: Callable[[str], Page]) -> None:
    page = page_of("questions/")
    rows = page.locator(".question-table tbody tr")
    total = show_every_row(page)
    assert total == len(site.questions), "the index must list every question once"
    assert len(set(rows.evaluate_all("rows => rows.map(r => r.dataset.id)"))) == total
    narrowed = 0
    for name in ("level", "importance", "topic"):
        select = page.locator(f'select[data-filter="{name}"]')
        values = [v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)") if v]
        for value in values:
            select.select_option(value)
            matching = page.locator(f'.question-table tbody tr[data-{name}="{value}"]').count()
            expect(page.locator(".question-table tbody tr:visible")).to_have_count(matching)
            expect(page.locator(".question-count")).to_have_text(f"{matching} of {total} questions")
            narrowed += matching < total
        select.select_option("")
        expect(page.locator(".question-table tbody tr:visible")).to_have_count(total)
    assert narrowed, "no filter value narrowed the table: the test site needs questions that differ"
    first = rows.first.locator("td").first.inner_text()
    page.locator('input[data-filter="text"]').fill(first)
    expect(page.locator(".question-table tbody tr:visible")).to_have_count(
        sum(first.lower() in text.lower() for text in rows.locator("td:first-child").all_inner_texts()))
