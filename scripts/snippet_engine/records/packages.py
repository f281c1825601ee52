"""The installed distributions whose release can change what a snippet prints, with versions.

A record made with onnxruntime 1.32.0 is not a record of 1.33.0: the cache key (`cachekey`) holds
the version of every distribution the snippet (or a helper it imports) imports, of those torch
imports on its behalf (`torch.onnx` loads onnxscript), of numpy (every snippet's process seeds it),
and of everything those require in turn, so that moving a pin re-runs exactly the snippets that
use the tool. torch itself is keyed by its release in `cachekey` and is not expanded here: its
CUDA wheel requires other distributions (nvidia-*, triton) than its CPU wheel, and a CUDA record
must read as current where only the CPU wheel is installed (the CUDA workflow's merge job).

Read from package metadata without importing anything, so `check` and an idle `run` stay fast:
the metadata found on the path the snippet's own interpreter searches (`snippet_path`), not on
this process's, which honours a PYTHONPATH that never reaches a snippet.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from functools import cache

from snippet_engine.snippet_env import worker_env
from snippet_engine.source.discovery import imported_names

# Imported by the engine in every snippet's process: the child seeds numpy when it is installed.
ALWAYS = ("numpy",)
# What torch imports itself when a snippet uses one of its parts (named in the source), though
# the snippet never imports it: torch.onnx.export(..., dynamo=True) runs onnxscript.
TORCH_PULLS: dict[str, tuple[str, ...]] = {"torch.onnx": ("onnxscript", "onnx")}
# Keyed elsewhere (cachekey: torch's release, the same for its CPU and CUDA wheels).
NOT_KEYED = frozenset({"torch"})
_REQUIREMENT_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503): `onnx_ir` and `ONNX-IR` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_modules(source: str) -> set[str]:
    """The top-level names of the absolute imports in `source` (stdlib ones left out)."""
    return imported_names(source) - set(sys.stdlib_module_names)


_PATH_PROBE = "import json, sys; print(json.dumps(sys.path[1:]))"


@cache
def snippet_path() -> tuple[str, ...]:
    """Where a snippet's interpreter looks for modules: this interpreter's `sys.path` as a process
    started with the snippet's environment (`snippet_env.worker_env`: no PYTHONPATH of the
    recording shell's, whatever user site it has) gets it, asked once in a subprocess that imports
    nothing (about 20 ms). Its first entry, the script's folder, is the snippet's own, holding no
    distribution. Where the probe fails, this process's path is the best there is."""
    try:
        done = subprocess.run([sys.executable, "-c", _PATH_PROBE], env=worker_env("cpu"),
                              capture_output=True, text=True, timeout=60, check=True)
        return tuple(json.loads(done.stdout))
    except (OSError, subprocess.SubprocessError, ValueError):
        return tuple(sys.path)


def _distributions() -> list[importlib.metadata.Distribution]:
    return list(importlib.metadata.distributions(path=list(snippet_path())))


def _top_level(dist: importlib.metadata.Distribution) -> set[str]:
    """The importable top-level names a distribution provides, as
    `importlib.metadata.packages_distributions` finds them (which searches only `sys.path`):
    those its top_level.txt declares, else those its installed files show."""
    declared = (dist.read_text("top_level.txt") or "").split()
    if declared:
        return set(declared)
    return {file.parts[0] if len(file.parts) > 1 else file.with_suffix("").name
            for file in dist.files or () if file.suffix == ".py"}


@cache
def _owners() -> dict[str, tuple[str, ...]]:
    """Top-level module name -> the distributions that provide it."""
    owners: dict[str, list[str]] = {}
    for dist in _distributions():
        for module in _top_level(dist):
            owners.setdefault(module, []).append(canonical(dist.metadata["Name"] or ""))
    return {module: tuple(dists) for module, dists in owners.items()}


@cache
def installed() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every installed distribution: canonical name -> (version, names it requires). A
    requirement only for an extra (`; extra == "dev"`) is left out; one for this platform or
    Python is kept whether or not its marker holds, and counts only when installed."""
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for dist in _distributions():
        name = dist.metadata["Name"]
        if not name or canonical(name) in found:  # the first on sys.path is the one imported
            continue
        requires = []
        for requirement in dist.requires or ():
            match = _REQUIREMENT_NAME.match(requirement)
            if match and "extra ==" not in requirement.replace("extra==", "extra =="):
                requires.append(canonical(match.group(1)))
        found[canonical(name)] = (dist.version, tuple(requires))
    return found


def package_versions(sources: list[str]) -> dict[str, str]:
    """{distribution: version} for the snippet whose source and helpers' sources are `sources`."""
    roots: set[str] = set(ALWAYS)
    for source in sources:
        for module in imported_modules(source):
            roots.update(_owners().get(module, ()))
        for marker, pulled in TORCH_PULLS.items():
            if marker in source:
                roots.update(pulled)
    have = installed()
    versions: dict[str, str] = {}
    todo = [canonical(name) for name in roots]
    while todo:
        name = todo.pop()
        if name in versions or name in NOT_KEYED or name not in have:
            continue
        version, requires = have[name]
        versions[name] = version
        todo.extend(requires)
    return dict(sorted(versions.items()))


def describe_changes(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """What moved between the versions a record was made with and those installed now, as
    `check` says it: "onnxruntime 1.32.0 -> 1.33.0", "onnx 1.23.2 -> not installed"."""
    changes = []
    for name in sorted(set(recorded) | set(now)):
        before, after = recorded.get(name), now.get(name)
        if before != after:
            if before is None:
                changes.append(f"{name} {after} (not in the record)")
            else:
                changes.append(f"{name} {before} -> {after or 'not installed'}")
    return changes
