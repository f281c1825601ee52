"""Find snippets, their helper modules and their records.

A snippet is `snippets/<topic>/<name>.py`. A module whose name starts with `_` is a helper: it is
importable from any snippet and is never run on its own. Helpers are found by reading a snippet's
imports (without running it), so a change to a helper re-runs exactly the snippets that use it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RECORD_SUFFIX = ".txt"


@dataclass(frozen=True)
class Snippet:
    path: Path  # absolute
    rel: str  # relative to the repository root, with forward slashes

    def record_path(self, device: str) -> Path:
        return self.path.with_name(f"{self.path.stem}.{device}{RECORD_SUFFIX}")


def _is_snippet_file(path: Path, snippets_dir: Path) -> bool:
    parts = path.relative_to(snippets_dir).parts
    return not any(p.startswith(("_", ".")) for p in parts)


def discover(root: Path, selectors: list[str] | None = None) -> list[Snippet]:
    """Every snippet under `snippets/`, or only those named (files or folders), sorted by path."""
    snippets_dir = root / "snippets"
    targets = [Path(s) for s in selectors] if selectors else [snippets_dir]
    found: dict[Path, Snippet] = {}
    for given in targets:
        target = (given if given.is_absolute() else Path.cwd() / given).resolve()
        if not target.exists():
            raise FileNotFoundError(f"{target}: no such snippet file or folder")
        if target.is_file():
            candidates = [target]
        else:
            candidates = sorted(target.rglob("*.py"))
        for path in candidates:
            try:
                path.relative_to(snippets_dir.resolve())
            except ValueError:
                raise FileNotFoundError(
                    f"{path}: not under {snippets_dir}; snippets live in snippets/<topic>/"
                ) from None
            if path.suffix == ".py" and _is_snippet_file(path, snippets_dir.resolve()):
                found[path] = Snippet(path=path, rel=path.relative_to(root.resolve()).as_posix())
    return [found[p] for p in sorted(found)]


def all_records(root: Path) -> list[Path]:
    """Every record file (`<name>.<device>.txt`) under `snippets/`."""
    return sorted(p for p in (root / "snippets").rglob(f"*{RECORD_SUFFIX}") if is_record_file(p))


def snippet_for_record(record: Path) -> tuple[Path, str]:
    """The snippet path a record belongs to, and the record's device."""
    stem, _, device = record.stem.rpartition(".")
    return record.with_name(stem + ".py"), device


# Calls that import the module their first argument names: `importlib.import_module("_models")`,
# `import_module(...)` imported from importlib, `__import__(...)`.
_DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None  # the run reports the syntax error; the key still covers the source


# What a source imports and names is read from its text alone, so it is remembered by that text:
# a build or a `check` computes each snippet's key several times (the page checks, the drills'
# proof, the rendering), and each key reads the snippet and its helpers three times (helpers,
# packages, data files). Parsing them every time was most of a site build's time (a profile of
# 2026-12-07: ast.parse called 20,703 times in one build). Keyed by the text, never by a file's
# name or time, a changed file is parsed again, whatever its clock says.
_READ_CACHE = 4096


def imported_names(source: str, filename: str = "<snippet>") -> set[str]:
    """The top-level names of a source's absolute imports (read, never run): `import` statements
    and the calls that import a module named by a string literal (`importlib.import_module`,
    `__import__`); a name computed at run time cannot be read. (`filename` is kept for callers'
    sake: a source that does not parse imports nothing that can be read.)"""
    return set(_imported_names(source))


@lru_cache(maxsize=_READ_CACHE)
def _imported_names(source: str) -> frozenset[str]:
    tree = _parse(source)
    names: set[str] = set()
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if (called in _DYNAMIC_IMPORTS and isinstance(first, ast.Constant)
                    and isinstance(first.value, str) and first.value
                    and not first.value.startswith(".")):
                names.add(first.value.split(".")[0])
    return frozenset(names)


def _string_literals(path: Path) -> frozenset[str]:
    return _literals_in(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=_READ_CACHE)
def _literals_in(source: str) -> frozenset[str]:
    tree = _parse(source)
    if tree is None:
        return frozenset()
    return frozenset(node.value for node in ast.walk(tree)
                     if isinstance(node, ast.Constant) and isinstance(node.value, str)
                     and 0 < len(node.value) < 256 and "\n" not in node.value)


def is_record_file(path: Path) -> bool:
    """Whether a file's name is a record's (`<name>.<device>.txt`), as `all_records` finds them."""
    from snippet_engine.source.options import DEVICES

    return path.suffix == RECORD_SUFFIX and path.stem.rpartition(".")[2] in DEVICES


def data_files(snippet: Snippet, root: Path) -> list[Path]:
    """Files under snippets/ that are neither code nor records and that the snippet or a helper
    names in a string literal, beside itself or at the top of snippets/ (`Path(__file__).parent /
    "table.json"`, `open("weights.bin")` relative to it): what they read can change the output."""
    snippets_dir = (root / "snippets").resolve()
    sources = [snippet.path, *helper_files(snippet, root)]
    found: set[Path] = set()
    for source in sources:
        for name in _string_literals(source):
            if name.startswith("/") or ".." in Path(name).parts:
                continue
            for folder in (source.parent, root / "snippets"):
                candidate = folder / name
                try:
                    if (not candidate.is_file() or candidate.suffix in (".py", ".pyc")
                            or is_record_file(candidate)):
                        continue
                    candidate.resolve().relative_to(snippets_dir)
                except (OSError, ValueError):
                    continue
                found.add(candidate)
    return sorted(found)


def _resolve_helper(name: str, search: list[Path]) -> list[Path]:
    for folder in search:
        module = folder / f"{name}.py"
        if module.is_file():
            return [module]
        package = folder / name
        if (package / "__init__.py").is_file():
            return sorted(package.rglob("*.py"))
    return []


def helper_files(snippet: Snippet, root: Path) -> list[Path]:
    """Helper modules from `snippets/` that the snippet imports, directly or through a helper."""
    search = [snippet.path.parent, root / "snippets"]
    seen: set[Path] = set()
    queue = [snippet.path]
    while queue:
        current = queue.pop()
        names = imported_names(current.read_text(encoding="utf-8"), str(current))
        for name in sorted(names):
            for module in _resolve_helper(name, search):
                if module not in seen and module != snippet.path:
                    seen.add(module)
                    queue.append(module)
    return sorted(seen)
