"""Your progress, read as a person reads it, at a desktop and a phone width: the done-and-due
table has its column headers, one number per cell with space between them, and fits the screen;
the follow-ups rated in a self-test are listed under their question, after a reload."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .progress_api import with_progress
from .sites import Site

WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
QUESTION = "export/graph-signature"
MIN_GAP = 12  # px of white between the texts of two cells side by side

# Per row of the table: its cells' texts and the gaps between their rendered texts, in pixels.
ROWS = """table => Array.from(table.rows).map(row => {
  const cells = Array.from(row.cells);
  const boxes = cells.map(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getBoundingClientRect();
  });
  const gaps = boxes.slice(1).map((box, i) => box.left - boxes[i].right);
  return { cells: cells.map(cell => cell.innerText.trim()), gaps: gaps };
})"""


@pytest.fixture(params=list(WIDTHS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=WIDTHS[request.param])
    try:
        yield context.new_page()
    finally:
        context.close()


def test_the_done_and_due_table_reads_as_a_table(real_site: Site, page: Page) -> None:
    page.goto(real_site.url("progress/"))
    page.evaluate(with_progress("""async () => { await InterviewProgress.loadScheduler();
                             InterviewProgress.rate("export/graph-signature", "got-it");
                             InterviewProgress.rate("compile/graph-breaks", "review"); }"""))
    page.reload()
    table = page.locator(".progress-table")
    expect(table).to_be_visible()
    rows = table.evaluate(ROWS)
    assert rows[0]["cells"] == ["Level", "Questions", "Done", "Due for review"]
    problems = []
    for row in rows:
        for gap in row["gaps"]:
            if gap < MIN_GAP:
                problems.append(f"{row['cells']}: {gap:.0f} px between two cells")
        if len(row["cells"]) == 4 and row is not rows[0] and not all(
                re.fullmatch(r"\d+", cell) for cell in row["cells"][1:]):
            problems.append(f"{row['cells']}: not one number per cell")
    assert not problems, problems
    # The counts: the row of graph-signature's topic and level says one done.
    pages = {q["id"]: q for q in page.locator("[data-progress-tool=summary] script.question-list")
             .evaluate_all("s => JSON.parse(s[0].textContent)")}
    done = pages[QUESTION]
    here = [q for q in pages.values() if q["topic"] == done["topic"] and q["level"] == done["level"]]
    group = [row["cells"] for row in rows if row["cells"] == [done["topic_title"]]]
    assert group, f"no group of rows headed {done['topic_title']!r}"
    start = next(i for i, row in enumerate(rows) if row["cells"] == [done["topic_title"]])
    level_row = next(row["cells"] for row in rows[start + 1:]
                     if row["cells"][0] == done["level"].capitalize())
    assert level_row[1:] == [str(len(here)), "1", "0"]
    # The table fits the screen: nothing to scroll sideways.
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the screen"
    box = table.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


def test_follow_up_ratings_are_shown_under_their_question(real_site: Site, page: Page) -> None:
    page.goto(real_site.url(QUESTION + "/"))
    page.get_by_role("button", name="Practise this question").click()
    page.get_by_role("button", name="Reveal the short answer").click()
    page.locator(".practice-panel").get_by_role("button", name="Review", exact=True).click()
    page.get_by_role("button", name=re.compile("^Practise the ")).click()
    title = page.locator(".practice-followup").inner_text().split(": ", 1)[1]
    page.get_by_role("button", name="Reveal its answer").click()
    page.locator(".practice-followups").get_by_role("button", name="Not yet", exact=True).click()
    expect(page.locator(".practice-followup")).to_contain_text("Follow-up 2 of ")  # saved, moved on
    second = page.locator(".practice-followup").inner_text().split(": ", 1)[1]
    page.get_by_role("button", name="Reveal its answer").click()
    page.locator(".practice-followups").get_by_role("button", name="Got it", exact=True).click()
    expect(page.locator(".practice-followup")).to_contain_text("Follow-up 3 of ")  # saved, moved on
    question = page.locator("h1").inner_text().rstrip("¶").strip()
    page.goto(real_site.url("progress/"))
    page.reload()
    item = page.locator(".progress-ratings > li").filter(has=page.get_by_role("link", name=question))
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Rated Review on")
    follow_ups = item.locator("li")
    expect(follow_ups).to_have_count(2)
    on_a_day = r" on \d{4}-\d\d-\d\d\."
    expect(follow_ups.nth(0)).to_have_text(re.compile(re.escape(title) + " Rated Not yet" + on_a_day))
    expect(follow_ups.nth(1)).to_have_text(re.compile(re.escape(second) + " Rated Got it" + on_a_day))
    # Each follow-up is under its question: inside its item, below its link.
    link_box = item.get_by_role("link", name=question).bounding_box()
    first_box = follow_ups.nth(0).bounding_box()
    assert link_box and first_box and first_box["y"] > link_box["y"] and first_box["x"] > link_box["x"]
