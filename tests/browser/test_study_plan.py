"""The study plan as a reader meets it (issue 39, 3), in Chromium with the clock fixed: a question
in review is on the day it is due, the plan keeps its topics and level after a reload, a role
chooses them, each question gives its first-read time beside its speaking time, and "Next" on a
question page follows the plan."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from .progress_api import practise


def test_a_role_sets_the_plan_which_is_kept_gives_reading_time_and_waits_for_reviews(
        go: Callable[[str], Page]) -> None:
    """Before: no role to choose; study-plan/ forgot the topics and level; a question in review
    was on the first day; the minutes were speaking time only."""
    page = go("export/graph-signature/")
    practise(page, "Review")  # in review, due on 2026-12-03
    page = go("study-plan/")
    page.locator("input[name=interview]").fill("2026-12-08")
    page.get_by_label("Role").select_option(label="Compiler")
    expect(page.get_by_label("Target level")).to_have_value("principal")
    expect(page.get_by_role("checkbox", name="torch.compile")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Distributed training")).not_to_be_checked()
    page.get_by_role("button", name="Make the plan").click()
    page = go("study-plan/")  # no query: the plan made last
    expect(page.get_by_label("Role")).to_have_value("compiler")
    expect(page.get_by_label("Target level")).to_have_value("principal")
    expect(page.get_by_role("checkbox", name="Distributed training")).not_to_be_checked()
    expect(page.get_by_role("checkbox", name="torch.export")).to_be_checked()
    # The question in review: on its day, not before.
    days = page.locator(".plan-day")
    first = page.locator(".plan-list").first
    expect(first.locator("li")).not_to_have_count(0)
    expect(first).not_to_contain_text("graph signature", ignore_case=True)
    third = page.locator("h3.plan-day:has-text('2026-12-03') + ol.plan-list")
    expect(third.locator("li").first).to_contain_text("in review")
    expect(third.locator("li a").first).to_have_attribute("href", re.compile("export/graph-signature/"))
    # Reading time beside speaking time.
    expect(days.first).to_contain_text(
        re.compile(r"about \d+ minutes to answer, and about \d+ minutes to read"))
    expect(first.locator("li").first).to_contain_text(re.compile(r"\d+ min to read, \d+ min to answer"))
    expect(page.locator(".plan-line")).to_contain_text(re.compile(r"adds about \d+ minutes in all"))


def test_next_on_a_question_page_follows_the_plan(go: Callable[[str], Page]) -> None:
    """Before: "Next" was the site-wide order's next question (Core PyTorch first), whatever the
    plan."""
    page = go("study-plan/")
    page.locator("input[name=interview]").fill("2026-12-05")
    page.get_by_label("Role").select_option(label="Choose the topics and level yourself")
    for box in page.locator(".plan-topics input").all():
        box.uncheck()
    page.get_by_role("checkbox", name="torch.export").check()
    page.get_by_label("Target level").select_option("junior")
    page.get_by_role("button", name="Make the plan").click()
    plan = page.locator(".plan-list li a").evaluate_all("links => links.map(a => a.href)")
    assert len(plan) >= 2 and all("/export/" in href for href in plan), plan
    page.goto(plan[0])
    practise(page, "Review")
    result = page.locator(".practice-result")
    expect(result).to_contain_text("Next on your plan:")
    expect(result.locator(".practice-next")).to_have_attribute("href", plan[1])
