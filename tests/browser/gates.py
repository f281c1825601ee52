"""What a reader's browser must never meet on a page, each as a function that returns the problems.

Every gate returns a list of human-readable problems (empty when the page passes) instead of
asserting, so one test can report every page's failures at once, and so the tests in
test_gates_catch_breaks.py can show that each gate really fires on a page that breaks it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    Response,
    WebError,
)

# Chromium as the tests run it: headless, no sandbox (containers), and no background traffic of
# its own (updates, sync), so every request a test sees was made by the page.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    # Offline: no request can leave the machine, because no host name but the loopback test
    # server resolves (a request to another host is still seen, and reported, by recorded_context).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}  # a small Android phone, the narrowest width we support
SERIOUS = ("serious", "critical")
_LOCAL_SCHEMES = ("data", "blob", "about", "chrome-extension")
_axe = Axe()


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def is_foreign(url: str, base: str) -> bool:
    """A request to any host but the site's own: the site must work offline, on its own."""
    return urlsplit(url).scheme not in _LOCAL_SCHEMES and origin(url) != origin(base)


@dataclass
class Visit:
    """Everything a page did while it loaded, recorded for every request the page and its workers
    made (the search index is fetched by a web worker, which page-level events can miss)."""

    url: str
    status: int | None = None
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    finished: list[Request] = field(default_factory=list)

    def problems(self) -> list[str]:
        found = [] if self.status == 200 else [f"{self.url}: status {self.status}, not 200"]
        found += [f"{self.url}: console error: {text}" for text in self.console_errors]
        found += [f"{self.url}: request failed: {what}" for what in self.failed_requests]
        found += [f"{self.url}: request to another host: {url}" for url in self.foreign_requests]
        return found


@contextmanager
def recorded_context(browser: Browser, base: str,
                     **options: object) -> Iterator[tuple[BrowserContext, list[Visit]]]:
    """A fresh context (empty cache: a first visit; later pages find what the host lets the
    browser keep) that records each page's visit, and a request to another host as a problem of
    that visit. Such a request cannot leave the machine: no host name but the loopback resolves
    (CHROMIUM_ARGS). No route is set: Playwright turns the HTTP cache off in a context with one."""
    context = browser.new_context(**options)  # type: ignore[arg-type]
    visits: list[Visit] = []

    def current() -> Visit | None:
        return visits[-1] if visits else None

    def on_request(request: Request) -> None:
        visit = current()
        if visit is not None and is_foreign(request.url, base):
            visit.foreign_requests.append(request.url)

    def on_failed(request: Request) -> None:
        visit = current()
        if visit is not None and not is_foreign(request.url, base):
            visit.failed_requests.append(f"{request.url} ({request.failure})")

    def on_response(response: Response) -> None:
        visit = current()
        if visit is not None and response.status >= 400 and not is_foreign(response.url, base):
            visit.failed_requests.append(f"{response.url} (status {response.status})")

    def on_finished(request: Request) -> None:
        visit = current()
        if visit is not None:
            visit.finished.append(request)

    def on_console(message: ConsoleMessage) -> None:
        visit = current()
        if visit is not None and message.type == "error":
            visit.console_errors.append(message.text)

    def on_error(error: WebError) -> None:
        visit = current()
        if visit is not None:
            visit.console_errors.append(f"uncaught: {error.error}")

    context.on("request", on_request)
    context.on("requestfailed", on_failed)
    context.on("response", on_response)
    context.on("requestfinished", on_finished)
    context.on("console", on_console)
    context.on("weberror", on_error)
    try:
        yield context, visits
    finally:
        context.close()


def visit(context: BrowserContext, visits: list[Visit], url: str,
          quiet: bool = True, page: Page | None = None) -> tuple[Page, Visit]:
    """Open `url` in a new tab and, with `quiet`, wait until the network is quiet, so that late
    requests (the search worker fetching its index) are part of the record. Without it, call
    `page.wait_for_load_state("networkidle")` before reading the record: a caller with other work
    to do on the page (axe) saves the half second of quiet that Playwright waits for. `page`: a
    tab of `context` to navigate instead of a new one (a tour's: a new tab costs a sixth of a
    second, a third of a page's load)."""
    record = Visit(url)
    visits.append(record)
    page = page or context.new_page()
    response = page.goto(url, wait_until="load")
    record.status = response.status if response else None
    if quiet:
        page.wait_for_load_state("networkidle")
    return page, record


# A topic's notebook page repeats one cell template per snippet (mkdocs-jupyter): hundreds of
# cells, 23,000 elements for core, and axe takes about 30 s on it where a question page takes 1 to
# 2 s. Cells of the same kind (markdown, or code with the same kinds of output: text, stderr, an
# error) are built alike, so axe checks the first few of each kind and leaves the rest out; the
# sideways-scroll and console checks still see the whole page.
CELLS_PER_KIND = 3
_SAMPLE_NOTEBOOK_CELLS = """(perKind) => {
  const seen = new Map();
  let skipped = 0;
  for (const cell of document.querySelectorAll('.jp-Notebook > .jp-Cell')) {
    const mimes = [...new Set([...cell.querySelectorAll('[data-mime-type]')]
      .map(el => el.getAttribute('data-mime-type')))].sort();
    const kind = [...cell.classList].filter(c => c.endsWith('Cell')).sort().join(' ') + '|' + mimes;
    const count = (seen.get(kind) || 0) + 1;
    seen.set(kind, count);
    if (count > perKind) { cell.setAttribute('data-axe-repeat', ''); skipped += 1; }
  }
  return skipped;
}"""


# A fade still running is not what a reader reads: axe blends a half-faded element's colours
# into its background, so a button fading in (Material's back-to-top, shown while a click scrolls
# the page) failed colour contrast at 0.45 opacity where it passes at 1. Finite animations and
# transitions are waited for until none is left (a new one may start as one ends), at most 3 s;
# endless or paused ones (a spinner) are what the reader sees and are measured as they are.
_SETTLE_ANIMATIONS = """async () => {
  const deadline = performance.now() + 3000;
  for (;;) {
    const running = document.getAnimations().filter(a => a.playState === 'running'
        && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    if (!running.length) return 0;
    const left = deadline - performance.now();
    if (left <= 0) return running.length;
    await Promise.race([Promise.all(running.map(a => a.finished.catch(() => null))),
                        new Promise(done => setTimeout(done, left))]);
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  }
}"""


def settle_animations(page: Page) -> int:
    """Wait until no finite animation or transition runs (at most 3 s); how many still run."""
    return int(page.evaluate(_SETTLE_ANIMATIONS))


def serious_accessibility_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations, measured once the page's fades have ended.
    Minor and moderate ones are reported by Lighthouse's accessibility score instead; these two
    levels block a reader outright."""
    settle_animations(page)
    if page.evaluate(_SAMPLE_NOTEBOOK_CELLS, CELLS_PER_KIND):
        results = _axe.run(page, context={"exclude": ["[data-axe-repeat]"]}).response
    else:
        results = _axe.run(page).response
    problems = []
    for violation in results["violations"]:
        if violation["impact"] in SERIOUS:
            targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
            problems.append(f"{page.url}: {violation['id']} ({violation['impact']}): "
                            f"{violation['help']}; {len(violation['nodes'])} element(s): {targets}")
    return problems


# Which elements stick out is looked for only when the page does scroll sideways: measuring every
# element's box costs a notebook page's 23,000 elements a layout read each.
_WIDEST = """() => {
  const limit = document.documentElement.clientWidth;
  const scroll = document.documentElement.scrollWidth;
  if (scroll <= limit) return {scroll, client: limit, wide: []};
  const wide = [...document.body.querySelectorAll('*')]
    .filter(el => el.getBoundingClientRect().right > limit + 1 && el.getClientRects().length)
    .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
               + (el.className && typeof el.className === 'string'
                  ? '.' + el.className.trim().split(/\\s+/).join('.') : ''));
  return {scroll, client: limit, wide: wide.slice(-3)};
}"""


def sideways_scroll(page: Page) -> list[str]:
    """At phone width the page itself must not scroll sideways (code blocks and tables may scroll
    inside their own box). Names the innermost elements that stick out, to say what to fix."""
    box = page.evaluate(_WIDEST)
    if box["scroll"] <= box["client"]:
        return []
    return [f"{page.url}: scrolls sideways at {box['client']}px: content is {box['scroll']}px wide "
            f"(sticking out: {', '.join(box['wide']) or 'unknown'})"]


@dataclass(frozen=True)
class Weight:
    """A first visit as a reader on an empty cache pays for it."""

    url: str
    transferred_bytes: int  # compressed bodies plus headers, as the wire carries them
    requests: int
    dom_content_loaded_ms: float
    parts: dict[str, int]  # bytes per request path, to see what a change made heavier
    dom_elements: int = 0  # elements in the document once the network is quiet


def first_visit_weight(browser: Browser, base: str, url: str) -> Weight:
    """Bytes and requests of a first visit, until the network is quiet (so the search index,
    which the search worker fetches on every first visit, counts), and DOMContentLoaded."""
    with recorded_context(browser, base, viewport=DESKTOP) as (context, visits):
        page, record = visit(context, visits, url)
        parts: dict[str, int] = {}
        for request in record.finished:
            sizes, response = request.sizes(), request.response()
            # Chromium reports no body size for a worker's own script; the Content-Length of what
            # the server sent (compressed) is exact, and our server always sends one.
            body = int((response.headers if response else {}).get("content-length",
                                                                   sizes["responseBodySize"]))
            path = urlsplit(request.url).path
            parts[path] = parts.get(path, 0) + body + sizes["responseHeadersSize"]
        dcl = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
        elements = page.evaluate("document.getElementsByTagName('*').length")
        return Weight(url, sum(parts.values()), len(record.finished), round(dcl, 1), parts, elements)


_TAGS = re.compile(r"<[^>]+>")


def plain_text(html: str) -> str:
    """Text of an HTML fragment, as lunr indexes it (tags dropped)."""
    return " ".join(_TAGS.sub(" ", html).split())
