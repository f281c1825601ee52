"""Built sites served on loopback, and one Chromium for every browser test.

Three sites, each built for real with `mkdocs build --strict`:
- `real`: the repository itself (docs/ and snippets/), what readers get;
- `fixture`: the small site of tests/site_fixture.py, which builds whatever state the question
  bank is in, so a theme regression is caught even while pages are being written;
- `broken`: the fixture site plus pages that each break one gate (test_gates_catch_breaks.py);
- `grown`: the repository plus copies of its questions in new and real topics (grown.py's TEST
  shape; test_weight.py).
The quicker reader-facing tests (interactions, links, sharing) run on both `real` and `fixture`
(the `site` fixture); the page tours, weight and Lighthouse run on `real` alone.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from helpers import ROOT
from site_fixture import make_site_source

from .gates import CHROMIUM, CHROMIUM_ARGS, DESKTOP
from .grown import TEST as TEST_GROWTH
from .grown import make_grown_source
from .serve import serve
from .sites import BROKEN_PAGES, PIXEL_SVG, REPORT_DIR, Site, build_site, question_urls

_report: dict[str, object] = {}
_STARTED = time.time()  # a summary.json older than this is an earlier run's


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def fixture_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_site_source(tmp_path_factory.mktemp("fixture-site") / "repo")


def _served(name: str, root: Path, dest: Path) -> Iterator[Site]:
    build_site(root, dest)
    with serve(dest) as base:
        yield Site(name, root, dest, base, question_urls(root))


@pytest.fixture(scope="session")
def fixture_site(fixture_source: Path) -> Iterator[Site]:
    yield from _served("fixture", fixture_source, fixture_source.parent / "site")


@pytest.fixture(scope="session")
def real_site(real_site: Path) -> Iterator[Site]:
    """The repository's own site, as tests/conftest.py builds it once per session, served."""
    with serve(real_site) as base:
        yield Site("real", ROOT, real_site, base, question_urls(ROOT))


@pytest.fixture(scope="session", params=["real", "fixture"])
def site(request: pytest.FixtureRequest) -> Site:
    return request.getfixturevalue(f"{request.param}_site")


@pytest.fixture(scope="session")
def grown_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The repository with more question pages in new topics and in each real topic
    (tests/browser/grown.py, its TEST shape), built once per session."""
    root = make_grown_source(tmp_path_factory.mktemp("grown-site") / "repo", TEST_GROWTH)
    yield from _served("grown", root, root.parent / "site")


@pytest.fixture(scope="session")
def broken_site(fixture_source: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("broken-site") / "repo"
    shutil.copytree(fixture_source, root, ignore=shutil.ignore_patterns("site", ".cache"))
    for name, text in BROKEN_PAGES.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    with (root / "docs" / "published-urls.txt").open("a", encoding="utf-8") as ledger:
        ledger.writelines(name + "\n" for name in BROKEN_PAGES)
    (root / "docs" / "pixel.svg").write_text(PIXEL_SVG, encoding="utf-8")
    yield from _served("broken", root, root.parent / "site")


@pytest.fixture(scope="session")
def report() -> Iterator[dict[str, object]]:
    """Measurements worth keeping (weights, Lighthouse scores): written to
    build/site-report/summary.json, which tests/conftest.py prints at the end of the run."""
    yield _report
    if not _report:
        return
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    summary = REPORT_DIR / "summary.json"
    # The browser tests may be spread over several test processes (pytest-xdist): each adds what
    # it measured to what the others of this run wrote, one at a time.
    with open(REPORT_DIR / ".summary.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        measured: dict[str, object] = {}
        try:
            if summary.stat().st_mtime >= _STARTED:
                measured = json.loads(summary.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            pass
        measured.update(_report)
        summary.write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")


@pytest.fixture
def context(real_site: Site, browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile on the real site (empty local storage, downloads allowed) that
    fails the test on a script error: the practice and progress tests start from it."""
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    context.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield context
    context.close()
    assert not errors, errors


# The progress tests (test_progress_storage, test_hostile_imports, test_interview_date,
# test_study_plan) meet the site on a morning that does not move: a page whose clock stands at
# CLOCK_NOW, and `go(rel)` to open a page of the real site in it. (A module with its own `page`
# or `go` fixture keeps its own.)
CLOCK_NOW = "2026-12-01T10:00:00"


@pytest.fixture
def page(context: BrowserContext) -> Page:
    page = context.new_page()
    page.clock.set_fixed_time(CLOCK_NOW)
    return page


@pytest.fixture
def go(real_site: Site, page: Page) -> Callable[[str], Page]:
    def go(rel: str) -> Page:
        page.goto(real_site.url(rel), wait_until="load")
        return page
    return go
