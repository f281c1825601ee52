"""The question index as a reader meets it: the page serves the first rows in learning order and
fetches the rest when the reader filters, sorts or asks for every question (questions.js)."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def total_questions(page: Page) -> int:
    """How many questions the index says the site has (all rows, when the page serves them all)."""
    table = page.locator(".question-table")
    total = table.get_attribute("data-total")
    return int(total) if total else page.locator(".question-table tbody tr").count()


def wait_for_every_row(page: Page) -> int:
    """Wait until the table holds a row for every question (after an interaction asked for them);
    return how many."""
    total = total_questions(page)
    expect(page.locator(".question-table tbody tr")).to_have_count(total)
    return total


def show_every_row(page: Page) -> int:
    """Press "Show all N questions" where the page offers it, as a reader does; return N."""
    button = page.locator("[data-show-all]")
    if page.locator(".question-table[data-rest]").count() and button.is_visible():
        try:
            button.click(timeout=10_000)
        except PlaywrightTimeoutError:
            pass  # the rows arrived as it was reached for (progress asked for them): it hid
        expect(button).to_be_hidden()
    return wait_for_every_row(page)
