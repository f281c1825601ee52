"""Fixtures for the engine's tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from snippet_engine.source.discovery import Snippet

RecordOf = Callable[..., Path]


@pytest.fixture
def record_of() -> RecordOf:
    """`record_of(root, "snippets/t/a.py", device="cpu")`: where the engine keeps that snippet's
    record. Tests ask `Snippet.record_path`, the one rule for it, instead of spelling the name."""

    def record_of(root: Path, rel: str, device: str = "cpu") -> Path:
        return Snippet(root / rel, rel).record_path(device)

    return record_of
