"""Fixtures shared by every test folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import helpers  # noqa: F401 - puts scripts/ on sys.path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty repository layout with a snippets/ folder."""
    (tmp_path / "snippets" / "t").mkdir(parents=True)
    return tmp_path
