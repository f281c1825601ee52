"""Whether each committed drift report still stands for the bank: it must hold every CPU snippet
at the key the snippet has now.

A drift report (`drift`) says what each snippet does on another torch; the *Upgrading torch* page
and the line under each snippet show it. A snippet added since the report was made, or changed
since (its source, a helper, a package it uses, the engine), was never run on that torch, so
the report cannot speak for it. Each entry holds the key of the committed record it was compared
with; `check` fails on a report that misses a CPU snippet or holds it at another key, and says
the command that brings it up to date.
"""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass
from pathlib import Path

from snippet_engine.records.cachekey import compute_key
from snippet_engine.records.environment import Environment, torch_version
from snippet_engine.source.discovery import discover
from snippet_engine.source.options import SnippetOptionError, parse_options

SHOWN = 5  # snippets named in the message; the rest are counted


@dataclass(frozen=True)
class Coverage:
    report: str  # the report, relative to the repository root
    torch: str  # the torch it compared
    total: int  # CPU snippets in the bank now
    missing: tuple[str, ...]  # snippets (snippets/...) it does not hold at their current key, why

    def message(self) -> str:
        named = ", ".join(self.missing[:SHOWN])
        more = f" and {len(self.missing) - SHOWN} more" if len(self.missing) > SHOWN else ""
        return (f"covers {self.total - len(self.missing)} of the {self.total} CPU snippets at "
                f"their current key; not {named}{more}. It cannot say what they do on torch "
                f"{self.torch}: run python scripts/snippets.py drift --torch {self.torch} --changed "
                "(only what changed runs) and commit the report")


REPORT_DIR = "reports/drift"  # where `snippets.py drift` writes its reports, checkout-relative

def cpu_keys(root: Path, known: dict[str, str] | None = None) -> dict[str, str]:
    """The current key of every CPU snippet: from `known` where it was computed already."""
    env = Environment(device="cpu", torch_version=torch_version(),
                      python_version=platform.python_version(), hardware="")
    keys = {}
    known = known or {}
    for snippet in discover(root):
        if snippet.rel in known:
            keys[snippet.rel] = known[snippet.rel]
            continue
        try:
            if "cpu" not in parse_options(snippet.path).devices:
                continue
        except SnippetOptionError:
            continue  # `check` reports the option line
        keys[snippet.rel] = compute_key(snippet, env, root)[0]
    return keys


def report_paths(folder: Path) -> list[Path]:
    """The committed drift reports in `folder`, by name. `torch-X-sources.json` beside a report
    is not one: it is the check of the pages' source ties on that torch (check_pages.py
    --drift-ties), which the site reads on its own."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("torch-*.json") if not p.name.endswith("-sources.json"))


def uncovered(root: Path, known: dict[str, str] | None = None) -> list[Coverage]:
    """One entry per committed report that does not hold every CPU snippet at its current key.
    `known`: keys the caller has computed already, by snippet path."""
    folder = root / REPORT_DIR
    paths = report_paths(folder)
    if not paths:
        return []  # nothing compared yet: the page says so, and nothing claims coverage
    keys = cpu_keys(root, known)
    found = []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            held = {item["snippet"]: item.get("key") for item in data["snippets"]}
            torch = str(data["compared"]["torch"]).split("+")[0]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            found.append(Coverage(rel, path.stem.removeprefix("torch-"), len(keys),
                                  (f"any (the report cannot be read: {exc})",)))
            continue
        missing = tuple(
            f"{snippet} (not in it)" if snippet not in held else
            f"{snippet} (in it without a key: the report predates keys)" if not held[snippet] else
            f"{snippet} (compared at another key: it or what it uses changed since)"
            for snippet, key in keys.items() if held.get(snippet) != key)
        if missing:
            found.append(Coverage(rel, torch, len(keys), missing))
    return found
