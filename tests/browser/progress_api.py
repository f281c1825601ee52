"""How a test reaches the site's progress API from a page: the page's own modules, imported again
by their URLs (a module is evaluated once per page, so this is the instance the page's scripts
use; the site shares nothing through `window`)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# The modules beside progress.js, which every page loads: storage.js (load, rate, loadScheduler),
# days.js (the reader's calendar days) and scheduling.js (the FSRS schedule).
_IMPORTS = ("const base = document.querySelector('script[src$=\"/progress.js\"]').src; "
            "const InterviewProgress = await import(new URL('storage.js', base).href); "
            "const days = await import(new URL('days.js', base).href); "
            "const scheduling = await import(new URL('scheduling.js', base).href); ")


def with_progress(function: str) -> str:
    """An async arrow function for page.evaluate, `async (...) => { ... }`, with
    `InterviewProgress` (storage.js), `days` and `scheduling` in scope in its body."""
    head, brace, body = function.partition("{")
    assert head.lstrip().startswith("async") and brace, function
    return head + brace + " " + _IMPORTS + body


def practise(page: Page, rating: str) -> None:
    """Rate the question of `page` through its self-test, as a reader does, and wait for "Saved"."""
    page.get_by_role("button", name="Practise this question").click()
    page.get_by_role("button", name="Reveal the short answer").click()
    page.locator(".practice-panel").get_by_role("button", name=rating, exact=True).click()
    expect(page.locator(".practice-result")).to_contain_text("Saved")
