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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The site's measurements, if this run wrote them (not a file left by an earlier run)."""
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
    """The repository's own site, built once per session with `mkdocs build --strict`."""
    import subprocess

    site = tmp_path_factory.mktemp("real-site") / "site"
    env = helpers.mkdocs_env()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(helpers.ROOT / "mkdocs.yml"),
         "-d", str(site)], capture_output=True, text=True, env=env, cwd=helpers.ROOT, check=False)
    assert done.returncode == 0, done.stderr[-5000:]
    return site
