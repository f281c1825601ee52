"""The cache key of a snippet on a device: everything that can change what it prints.

The key covers the snippet's source, each helper it imports from `snippets/` (by an import
statement or `importlib.import_module("_name")`), each data file under `snippets/` it or a helper
names (`discovery.data_files`), the torch release,
Python's major.minor version, the device, the engine's version and the version of every installed
distribution the snippet's output can depend on (`packages`: what it imports, numpy, and what
those require); never the page prose. A record whose key differs from the current one is stale.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from snippet_engine import ENGINE_VERSION
from snippet_engine.records.environment import Environment
from snippet_engine.records.packages import package_versions
from snippet_engine.source.discovery import Snippet, data_files, helper_files


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snippet_packages(snippet: Snippet, root: Path) -> dict[str, str]:
    """{distribution: version} for the snippet and the helpers it imports (`packages`)."""
    paths = [snippet.path, *helper_files(snippet, root)]
    return package_versions([path.read_text(encoding="utf-8") for path in paths])


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
        "packages": snippet_packages(snippet, root),
    }
    data = {p.relative_to(root).as_posix(): sha256_file(p) for p in data_files(snippet, root)}
    if data:  # only then: the keys of snippets that read no data file are as they were
        material["data"] = data
    key = hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()
    return key, helpers
