"""The cache key of a snippet on a device: everything that can change what it prints.

The key covers the snippet's source, each helper it imports from `snippets/`, the torch release,
Python's major.minor version, the device and the engine's version; never the page prose. A record
whose key differs from the current one is stale.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import ENGINE_VERSION
from .discovery import Snippet, helper_files
from .environment import Environment


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compute_key(snippet: Snippet, env: Environment, root: Path) -> tuple[str, dict[str, str]]:
    """Return (key, {helper path: sha256})."""
    helpers = {p.relative_to(root).as_posix(): sha256_file(p) for p in helper_files(snippet, root)}
    material = {
        "engine": ENGINE_VERSION,
        "source": sha256_file(snippet.path),
        "helpers": helpers,
        "torch": env.torch_base,
        "python": env.python_minor,
        "device": env.device,
    }
    key = hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()
    return key, helpers
