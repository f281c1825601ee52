"""Practice mode on the repository's own site, in Chromium: the self-test on a question page (by
mouse and by keyboard only), progress that survives a reload, a corrupt or old stored value reset
with a message, export then import, the review schedule under a fixed clock, the index filtered
by progress, the study plan, and axe on every new page and state."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .gates import DESKTOP, serious_accessibility_violations
from .index_page import wait_for_every_row
from .progress_api import with_progress
from .sites import Site

KEY = "pytorch-interview-questions.progress"
QUESTION = "export/graph-signature"


@pytest.fixture
def open_page(real_site: Site, context: BrowserContext) -> Callable[[str], Page]:
    page = context.new_page()

    def go(rel: str) -> Page:
        page.goto(real_site.url(rel), wait_until="load")
        return page

    return go


def stored(page: Page) -> dict | None:
    raw = page.evaluate(f"localStorage.getItem({json.dumps(KEY)})")
    return json.loads(raw) if raw is not None else None


def practise(page: Page, rating: str) -> None:
    page.get_by_role("button", name="Practise this question").click()
    page.get_by_role("button", name="Reveal the short answer").click()
    page.locator(".practice-panel").get_by_role("button", name=rating, exact=True).click()
    # Saved once the scheduler has loaded: the reader is told the outcome, then it is stored.
    expect(page.locator(".practice-result")).not_to_be_empty()


def test_self_test_hides_answers_and_keeps_the_rating_across_a_reload(open_page: Callable[[str], Page],
                                                                       real_site: Site) -> None:
    page = open_page(QUESTION + "/")
    expect(page.locator(".practice-status")).to_have_text("Your progress: Not started")
    page.get_by_role("button", name="Practise this question").click()
    for anchor in ("short-answer", "basics", "solid-answer", "code", "explainer", "red-flags"):
        expect(page.locator(f"#{anchor}")).to_be_hidden()
    expect(page.locator("#follow-ups")).to_be_hidden()  # the panel puts them one at a time
    expect(page.locator(".practice-timer")).to_contain_text("about 20 s for the basics, about 50 s")
    page.get_by_role("button", name="Reveal the short answer").click()
    items = page.locator(".practice-checklist label")
    bullets = page.locator("#short-answer ~ ul").first.locator("li")
    assert items.count() == bullets.count() > 0
    items.first.locator("input").check()
    page.locator(".practice-panel").get_by_role("button", name="Review", exact=True).click()
    expect(page.locator(".practice-result")).to_contain_text("Saved: review. It comes back on")
    value = stored(page)
    assert value and value["version"] == 2
    entry = value["questions"][QUESTION]
    assert entry["state"] == "review" and entry["rating"] == "review" and entry["due"] > entry["rated"]
    page.get_by_role("button", name="Stop practising and show the page").click()
    expect(page.locator("#basics")).to_be_visible()
    page.reload()
    due, rated = page.evaluate(
        with_progress("async e => { return [days.dayOf(e.due), days.dayOf(e.rated)]; }"), entry)
    expect(page.locator(".practice-status")).to_have_text(
        f"Your progress: Review on {due} (rated review on {rated})")
    # The navigation marks the question on every page, here another question's.
    page.goto(real_site.url("export/what-export-returns/"))
    mark = page.locator(".md-nav__link[href$='graph-signature/'] .progress-mark").first
    expect(mark).to_have_text("review")


def test_practice_works_from_the_keyboard_alone(open_page: Callable[[str], Page]) -> None:
    page = open_page(QUESTION + "/")

    def tab_to(name: str, limit: int = 200) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && document.activeElement.textContent.trim()") == name:
                return
        raise AssertionError(f"Tab never reached {name!r}")

    tab_to("Practise this question")
    page.keyboard.press("Enter")
    tab_to("Reveal the short answer")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.type") == "checkbox", "focus moves to the checklist"
    page.keyboard.press("Space")
    expect(page.locator(".practice-checklist input").first).to_be_checked()
    tab_to("Got it")
    page.keyboard.press("Enter")
    # The rating is saved once the scheduler has loaded (storage.js, imported at the first
    # rating): the reader sees it said, then it is stored.
    expect(page.locator(".practice-result")).not_to_be_empty()
    assert stored(page)["questions"][QUESTION]["state"] == "done"
    # Focus moved on to the follow-ups: practise the first one, by keyboard too.
    assert page.evaluate("document.activeElement.textContent").startswith("Practise the ")
    page.keyboard.press("Enter")
    first = page.locator(".practice-followup").inner_text()
    tab_to("Reveal its answer")
    page.keyboard.press("Enter")
    expect(page.locator(".practice-followups details[open]")).to_have_count(1)
    assert page.evaluate("document.activeElement.textContent") == "Got it"
    page.keyboard.press("Enter")
    title = first.split(": ", 1)[1]
    expect(page.locator(".practice-followup")).to_contain_text("Follow-up 2 of ")
    assert stored(page)["questions"][QUESTION]["followups"][title]["rating"] == "got-it"
    page.reload(wait_until="load")
    kept = stored(page)["questions"][QUESTION]["followups"][title]
    assert kept["rating"] == "got-it", "kept after a reload"


def test_export_then_import_round_trips_and_refuses_other_files(open_page: Callable[[str], Page],
                                                                 tmp_path: Path) -> None:
    page = open_page("progress/")
    page.evaluate(with_progress("""async () => { await InterviewProgress.loadScheduler();
                             InterviewProgress.rate("export/graph-signature", "review");
                             InterviewProgress.rate("compile/graph-breaks", "got-it"); }"""))
    before = stored(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="Export progress to a file").click()
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert data["app"] == "pytorch-interview-questions" and data["questions"] == before["questions"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Clear all progress").click()
    assert stored(page) is None
    page.locator(".transfer-file").set_input_files(str(exported))
    page.get_by_role("button", name="Import it").click()
    expect(page.locator(".transfer-message")).to_contain_text("2 new and 0 newer of its 2 questions")
    assert stored(page)["questions"] == before["questions"]
    # Merging by date: an older rating in the file does not overwrite a newer one here.
    older = json.loads(exported.read_text())
    older["questions"]["export/graph-signature"]["rated"] = "2000-01-01T00:00:00.000Z"
    older["questions"]["export/graph-signature"]["rating"] = "got-it"
    older["questions"]["export/graph-signature"]["state"] = "done"
    older["questions"]["export/graph-signature"]["due"] = None
    (tmp_path / "older.json").write_text(json.dumps(older))
    page.locator(".transfer-file").set_input_files(str(tmp_path / "older.json"))
    expect(page.locator(".transfer-message")).to_contain_text("Nothing to import from older.json")
    assert stored(page)["questions"]["export/graph-signature"]["state"] == "review"
    # A file that is not ours changes nothing, and says why.
    (tmp_path / "other.json").write_text(json.dumps({"questions": {}}))
    page.locator(".transfer-file").set_input_files(str(tmp_path / "other.json"))
    expect(page.locator(".transfer-message")).to_contain_text(
        "other.json cannot be imported: it is not a progress file of this site")
    assert stored(page)["questions"] == before["questions"]


def test_review_comes_back_after_a_growing_interval(real_site: Site, browser: Browser) -> None:
    """FSRS (ts-fsrs, no fuzz, whole days): Review on a new question waits 2 days, a second
    Review on time 4, Not yet brings it back the next day, Got it marks it done."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        page.clock.set_fixed_time("2026-12-01T10:00:00")
        page.goto(real_site.url(QUESTION + "/"))
        practise(page, "Review")
        assert stored(page)["questions"][QUESTION]["due"][:10] == "2026-12-03"

        def due_rows(day: str) -> list[str]:
            page.clock.set_fixed_time(f"{day}T09:00:00")
            page.goto(real_site.url("questions/?progress=due"))
            return page.locator(".question-table tbody tr:visible").evaluate_all(
                "rows => rows.map(r => r.dataset.id)")

        assert due_rows("2026-12-02") == []
        expect(page.locator(".progress-index-line")).to_contain_text("Due for review today: 0.")
        assert due_rows("2026-12-03") == [QUESTION]
        expect(page.locator(".progress-index-line")).to_contain_text("Due for review today: 1.")
        page.goto(real_site.url(""))
        expect(page.locator(".progress-line")).to_contain_text("Due for review today: 1")
        expect(page.locator(".progress-due a")).to_have_text(re.compile("graph signature", re.I))
        page.goto(real_site.url(QUESTION + "/"))
        expect(page.locator(".practice-status")).to_have_text(re.compile("Due for review"))
        practise(page, "Review")  # a second review: a longer wait
        assert stored(page)["questions"][QUESTION]["due"][:10] == "2026-12-07"
        page.reload()
        practise(page, "Not yet")  # back the next day
        assert stored(page)["questions"][QUESTION]["due"][:10] == "2026-12-04"
        page.reload()
        practise(page, "Got it")
        entry = stored(page)["questions"][QUESTION]
        assert entry["state"] == "done" and entry["due"] is None
    finally:
        context.close()


def test_the_index_filters_by_progress(open_page: Callable[[str], Page]) -> None:
    page = open_page("questions/")
    page.evaluate(with_progress("""async () => { await InterviewProgress.loadScheduler();
                             InterviewProgress.rate("export/graph-signature", "got-it");
                             InterviewProgress.rate("compile/graph-breaks", "review"); }"""))
    # With progress to show, the index fetches the rows its page did not serve.
    total = wait_for_every_row(page)
    # The next question: the first, in learning order, that is neither done nor waiting for review.
    rows = page.locator(".question-table tbody tr").evaluate_all(
        "rows => rows.map(r => [Number(r.dataset.learningRank), r.dataset.id, r.cells[0].textContent])")
    expected = next(text for _, qid, text in sorted(rows)
                    if qid not in ("export/graph-signature", "compile/graph-breaks"))
    expect(page.locator(".progress-index-line .progress-next")).to_have_text(expected)
    select = page.locator("select[data-progress-filter]")
    select.select_option("done")
    visible = page.locator(".question-table tbody tr:visible")
    expect(visible).to_have_count(1)
    assert visible.first.get_attribute("data-id") == "export/graph-signature"
    expect(visible.first.locator(".progress-cell")).to_have_text("Done")
    assert "progress=done" in page.url
    select.select_option("review")
    expect(visible).to_have_count(1)
    select.select_option("not-started")
    expect(visible).to_have_count(total - 2)
    expect(page.locator(".question-count")).to_have_text(f"{total - 2} of {total} questions")
    # With the index's own filters: both must allow a row.
    page.locator('select[data-filter="topic"]').select_option("compile")
    compile_rows = page.locator('.question-table tbody tr[data-topic="compile"]').count()
    expect(visible).to_have_count(compile_rows - 1)


def test_the_study_plan_follows_level_importance_and_progress(open_page: Callable[[str], Page],
                                                              real_site: Site) -> None:
    page = open_page("study-plan/?days=2&level=middle")
    pages = json.loads(page.locator("script.question-list").text_content())
    # Up to the level, and the must-know questions at a topic's core (asked often) above it.
    wanted = [q for q in pages if q["level"] in ("junior", "middle")
              or (q["importance"] == "must know" and q["frequency"] >= 50)]
    listed = page.locator(".plan-list li a")
    expect(listed).to_have_count(len(wanted))
    importance = [next(q["importance"] for q in pages if q["question"] == text)
                  for text in listed.all_inner_texts()]
    order = ["must know", "should know", "nice to know"]
    assert [order.index(i) for i in importance] == sorted(order.index(i) for i in importance)
    expect(page.locator(".plan-day")).to_have_count(2)
    # A question marked done leaves the plan.
    done = wanted[0]["id"]
    page.evaluate(with_progress("async id => { await InterviewProgress.loadScheduler(); "
                                "InterviewProgress.rate(id, 'got-it'); }"), done)
    expect(listed).to_have_count(len(wanted) - 1)
    five = page.evaluate(with_progress("async () => { return days.addDays(days.today(), 5); }"))
    page.locator("input[name=interview]").fill(five)
    page.get_by_role("button", name="Make the plan").click()
    assert f"interview={five}" in page.url
    left = len(wanted) - 1
    per_day = -(-left // 5)
    expect(page.locator(".plan-day")).to_have_count(-(-left // per_day))


@pytest.mark.parametrize("state", ["practising", "rated", "progress page", "study plan", "index"])
def test_new_pages_and_states_pass_axe(open_page: Callable[[str], Page], state: str) -> None:
    if state in ("practising", "rated"):
        page = open_page(QUESTION + "/")
        page.get_by_role("button", name="Practise this question").click()
        page.get_by_role("button", name="Reveal the short answer").click()
        if state == "rated":
            page.locator(".practice-panel").get_by_role("button", name="Review", exact=True).click()
            page.get_by_role("button", name=re.compile("^Practise the ")).click()
    elif state == "progress page":
        page = open_page("progress/")
        page.evaluate(with_progress("async () => { await InterviewProgress.loadScheduler(); "
                                    "InterviewProgress.rate('export/graph-signature', 'review'); }"))
    elif state == "study plan":
        page = open_page("study-plan/")
    else:
        page = open_page("questions/")
        page.evaluate(with_progress("async () => { await InterviewProgress.loadScheduler(); "
                                    "InterviewProgress.rate('export/graph-signature', 'review'); }"))
    # The pointer out of the way (as test_mock_interview's axe does): a button left under it after
    # a click is drawn in Material's hover colours, which is not what a reader reads it in (the
    # panel's model answers, put away when the follow-ups start, move the exit button under it).
    page.mouse.move(0, 0)
    problems = serious_accessibility_violations(page)
    assert not problems, "\n".join(problems)


def test_a_malformed_hash_throws_nothing_and_the_page_still_works(real_site: Site,
                                                                  context: BrowserContext) -> None:
    """Issue 39, 7: the explainer read the hash with decodeURIComponent, which throws on a bad
    escape ("#%", "#%E0%A4%A"): an error on load and at every such hashchange. The `context`
    fixture fails the test on any script error; the page's links and self-test still work."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(real_site.url(QUESTION + "/#%E0%A4%A"), wait_until="load")
    expect(page.locator(".practice-slot[data-ready]")).to_have_count(1)
    for bad in ("%", "%zz", "%E0%A4%A", "explainer%"):
        page.evaluate("hash => { location.hash = hash; }", bad)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
    assert not errors, errors
    # A good link to a folded section of the explainer still opens it.
    heading = page.evaluate("""() => {
        const fold = document.querySelector('details.explainer-fold:not([open])');
        const heading = fold && fold.previousElementSibling;
        return heading && heading.id ? heading.id : null; }""")
    assert heading, "the explainer has a folded section under a heading with an id"
    page.evaluate("hash => { location.hash = hash; }", heading)
    expect(page.locator(f"[id='{heading}'] + details.explainer-fold")).to_have_attribute("open", "")
    page.get_by_role("button", name="Practise this question").click()
    expect(page.locator(".practice-panel")).to_be_visible()
    assert not errors, errors


def test_going_to_practice_after_load_starts_the_self_test_as_on_load(
        open_page: Callable[[str], Page]) -> None:
    """Issue 39, 7: `#practice` started the self-test only when the page was opened with it; a
    link to #practice on the page, or the hash typed after load (a hashchange), did nothing."""
    page = open_page(QUESTION + "/")
    expect(page.locator(".practice-slot[data-ready]")).to_have_count(1)  # practice.js has run
    expect(page.locator(".practice-panel")).to_have_count(0)
    page.evaluate("() => { location.hash = 'practice'; }")
    expect(page.locator(".practice-panel")).to_be_visible()
    for anchor in ("short-answer", "basics", "solid-answer", "explainer"):
        expect(page.locator(f"#{anchor}")).to_be_hidden()
    # Stopping shows the page and leaves #practice, so a link to it starts the self-test again.
    page.get_by_role("button", name="Stop practising and show the page").click()
    expect(page.locator(".practice-panel")).to_have_count(0)
    expect(page.locator("#basics")).to_be_visible()
    assert not page.url.endswith("#practice"), page.url
    page.evaluate("""() => { const a = document.createElement('a'); a.href = '#practice';
                             a.textContent = 'practise'; document.body.appendChild(a); a.click(); }""")
    expect(page.locator(".practice-panel")).to_be_visible()
    expect(page.locator("#short-answer")).to_be_hidden()


def test_the_reveal_shows_the_basics_and_the_solid_answer_beside_the_checklist(
        open_page: Callable[[str], Page]) -> None:
    """After the reader has answered and asks to see how it went, the page's basics and solid
    answer are shown in the panel to compare with (as the mock interview shows them); before,
    nothing of them is seen."""
    page = open_page(QUESTION + "/")
    # The section's first paragraph of its own (not its speaking-time note).
    first_paragraph = """a => { const h = document.getElementById(a);
        let n = h.nextElementSibling;
        while (n && (n.tagName !== 'P' || n.matches('.speaking-time, .speaking-time *')))
          n = n.nextElementSibling;
        return n.textContent.replace(/\\s+/g, ' ').trim(); }"""
    first = page.evaluate(first_paragraph, "basics")
    solid = page.evaluate(first_paragraph, "solid-answer")
    page.get_by_role("button", name="Practise this question").click()
    rendered = "() => document.body.innerText.replace(/\\s+/g, ' ')"
    assert first not in page.evaluate(rendered) and solid not in page.evaluate(rendered)
    page.get_by_role("button", name="Reveal the short answer").click()
    model = page.locator(".practice-panel .practice-model")
    expect(model).to_be_visible()
    expect(model.get_by_role("heading", name=re.compile("^Basics"))).to_be_visible()
    expect(model.get_by_role("heading", name=re.compile("^Solid answer"))).to_be_visible()
    shown = page.evaluate(rendered)
    assert first in shown and solid in shown
    # The page's own sections stay hidden: only the panel shows them, beside the checklist.
    expect(page.locator("#basics")).to_be_hidden()
    expect(page.locator(".practice-checklist")).to_be_visible()
    assert not serious_accessibility_violations(page)
