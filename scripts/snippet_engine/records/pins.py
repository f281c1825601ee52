"""The pinned torch release, read from requirements.txt so that there is one place to bump it.

It belongs to the engine: whether a record was made on the pinned torch is a fact about records,
and the pages, the notebooks and the drift report all ask it the same way.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from snippet_engine.errors import ProjectError


class PinError(ProjectError, ValueError):
    """requirements.txt has no exact torch pin."""


def release(version: str) -> str:
    """A torch version without its local build tag ("2.13.0+cpu" -> "2.13.0"): a CPU and a CUDA
    wheel of one release give the same answers to every question the site asks."""
    return version.split("+", 1)[0]


@cache
def pinned_torch(root: Path) -> str:
    """The exact torch release requirements.txt pins, e.g. "2.13.0"."""
    path = root / "requirements.txt"
    text = path.read_text(encoding="utf-8")
    match = re.search(r"^torch==([\w.]+)\s*$", text, re.MULTILINE)
    if not match:
        raise PinError(f"{path}: no exact 'torch==X.Y.Z' pin. Add one, e.g. torch==2.13.0")
    return match.group(1)


def pinned_minor(root: Path) -> str:
    """The pinned release's major.minor ("2.13"), as the torch documentation's URLs name it."""
    return ".".join(pinned_torch(root).split(".")[:2])
