"""Fixtures shared by every test folder."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import helpers

# The browser tests' measurements (tests/browser/conftest.py `report`), written by the test process
# that ran them; this process prints them.
SITE_REPORT = helpers.ROOT / "build" / "site-report" / "summary.json"
_started = time.time()


# Every test phase's seconds, as the process that prints the report receives them (under xdist,
# the controller): written beside the site report at the end, so that a slow run can be taken
# apart without a second run (--durations prints only the longest few).
DURATIONS = helpers.ROOT / "build" / "test-durations.json"
_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _durations[f"{report.when} {report.nodeid}"] = round(report.duration, 2)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The site's measurements, if this run wrote them (not a file left by an earlier run); every
    test phase's seconds into build/test-durations.json."""
    if _durations:
        DURATIONS.parent.mkdir(parents=True, exist_ok=True)
        ranked = dict(sorted(_durations.items(), key=lambda item: -item[1]))
        DURATIONS.write_text(json.dumps({"total_s": round(sum(ranked.values()), 1),
                                         "phases": ranked}, indent=1) + "\n", encoding="utf-8")
        terminalreporter.write_line(f"every test phase's seconds: {DURATIONS.relative_to(helpers.ROOT)}"
                                    f" ({sum(ranked.values()):.0f} s of work in all)")
    try:
        if SITE_REPORT.stat().st_mtime < _started:
            return
        measured = json.loads(SITE_REPORT.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return
    terminalreporter.section("site measurements (build/site-report/summary.json)")
    for key, value in measured.items():
        terminalreporter.write_line(f"{key}: {json.dumps(value)}")


# The modules that take longest (minutes each, --durations), run first: pytest-xdist hands out
# whole modules (`--dist loadscope`, pyproject.toml) in collection order, so one of these
# collected last would keep one process busy long after the other has finished.
LONGEST_FIRST = ("tests/snippet_engine/execution/test_determinism.py", "tests/browser/test_pages.py",
                 "tests/snippet_engine/execution/test_headers.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first, every other test in its place."""
    def rank(item: pytest.Item) -> int:
        module = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty repository layout with a snippets/ folder."""
    (tmp_path / "snippets" / "t").mkdir(parents=True)
    return tmp_path


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's own site, built once per run with `mkdocs build --strict`: under
    pytest-xdist the first worker to ask builds it, in the run's own temporary folder, and the
    others wait on a lock and read the same build (each built its own, a minute of CPU each)."""
    import fcntl
    import os
    import subprocess

    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's basetemp is <the run's basetemp>/popen-gwN: the parent is this
    # run's alone. Without xdist the parent holds earlier runs, so the build stays in basetemp.
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / "real-site"
    site, built = folder / "site", folder / "built"
    folder.mkdir(exist_ok=True)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            done = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                 str(helpers.ROOT / "mkdocs.yml"), "-d", str(site)], capture_output=True, text=True,
                env=helpers.mkdocs_env(), cwd=helpers.ROOT, check=False)
            assert done.returncode == 0, done.stderr[-5000:]
            built.write_text("built\n")
    return site
