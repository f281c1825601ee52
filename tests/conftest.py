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


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook, which reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Which tests share a test process (pytest-xdist's `--dist loadgroup`, pyproject.toml).

    The browser tests are one group: they share one Chromium and the sites built once per
    session (the real one, the fixture, the broken and the grown one), and together they write
    build/site-report/summary.json. Every other module is a group of its own, so a module's
    fixture (the determinism test's three runs of the bank, the headers test's run) runs once.
    The groups are spread over the processes as each becomes free; the browser group, collected
    first, takes one process while the other runs everything else."""
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        group = "browser" if module.startswith("tests/browser/") else module
        item.add_marker(pytest.mark.xdist_group(group))


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
