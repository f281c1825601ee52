from __future__ import annotations

from pathlib import Path

import pytest

from site_fixture import build, make_site_source


@pytest.fixture(scope="session")
def site_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the site with two fixture pages and real records (built once per session)."""
    return make_site_source(tmp_path_factory.mktemp("site") / "repo")


@pytest.fixture(scope="session")
def built_site(site_source: Path) -> Path:
    done = build(site_source)
    assert done.returncode == 0, done.stderr[-3000:]
    return site_source / "site"
