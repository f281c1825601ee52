"""The interview date as a reader meets it (issue 39, 2), in Chromium with the clock fixed: the
self-test asks for it while none is kept and re-plans the reviews already made when it is given;
a plan's link (?days=, ?interview=) proposes a date, and a kept one changes only when the reader
makes the plan. What is checked is what the reader sees after a reload, and what is kept."""

from __future__ import annotations

import json
from collections.abc import Callable

from playwright.sync_api import Page, expect

from .progress_api import practise

KEY = "pytorch-interview-questions.progress"


def stored(page: Page) -> dict:
    return json.loads(page.evaluate("key => localStorage.getItem(key)", KEY) or "null")


def test_a_rating_asks_for_the_interview_date_and_giving_it_brings_earlier_reviews_before_it(
        go: Callable[[str], Page]) -> None:
    """Before: a rating made with no date kept came back after the interview, with no word of it,
    and nothing asked for the date on the question page."""
    page = go("export/graph-signature/")
    practise(page, "Review")  # a new question rated Review: back in two days, on 2026-12-03
    ask = page.locator(".practice-interview")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("When is your interview?")
    page = go("compile/graph-breaks/")
    practise(page, "Review")
    page.locator(".practice-interview input[type=date]").fill("2026-12-03")
    page.locator(".practice-interview").get_by_role("button", name="Keep this date").click()
    expect(page.locator(".practice-interview")).to_contain_text("Interview date kept: 2026-12-03")
    expect(page.locator(".practice-result")).to_contain_text("It comes back on 2026-12-02.")
    assert stored(page)["interview"] == "2026-12-03"
    page.reload()
    expect(page.locator(".practice-status")).to_contain_text("Review on 2026-12-02")
    # The question rated before the date was given is re-planned too.
    page = go("export/graph-signature/")
    expect(page.locator(".practice-status")).to_contain_text("Review on 2026-12-02")
    # Once kept, a rating no longer asks.
    page = go("export/mutation/")
    practise(page, "Review")
    expect(page.locator(".practice-result")).to_contain_text("It comes back on 2026-12-02.")
    expect(page.locator(".practice-interview")).to_have_count(0)


def test_a_plan_link_proposes_a_date_and_a_kept_one_changes_only_when_the_reader_makes_the_plan(
        go: Callable[[str], Page]) -> None:
    """Before: opening study-plan/?days=3 rewrote the kept date on load."""
    page = go("study-plan/")
    page.locator("input[name=interview]").fill("2026-12-10")
    page.get_by_role("button", name="Make the plan").click()
    assert stored(page)["interview"] == "2026-12-10"
    page = go("study-plan/?days=3")
    expect(page.locator("input[name=interview]")).to_have_value("2026-12-04")
    expect(page.locator(".plan-proposal")).to_contain_text(
        "This link proposes an interview on 2026-12-04; your kept date is 2026-12-10")
    page.reload()
    assert stored(page)["interview"] == "2026-12-10"
    page = go("study-plan/")
    expect(page.locator("input[name=interview]")).to_have_value("2026-12-10")
    expect(page.locator(".plan-proposal")).to_be_hidden()
    page = go("study-plan/?interview=2026-12-06")
    page.get_by_role("button", name="Make the plan").click()
    expect(page.locator(".plan-proposal")).to_be_hidden()
    page.reload()
    assert stored(page)["interview"] == "2026-12-06"
