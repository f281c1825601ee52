"""The pinned torch release, read from requirements.txt so that there is one place to bump it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path


@cache
def pinned_torch(root: Path) -> str:
    text = (root / "requirements.txt").read_text(encoding="utf-8")
    match = re.search(r"^torch==([\w.]+)\s*$", text, re.MULTILINE)
    if not match:
        raise ValueError(f"{root / 'requirements.txt'}: no exact 'torch==X.Y.Z' pin")
    return match.group(1)
