"""Fixtures shared by every test folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import helpers


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
