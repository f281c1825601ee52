"""The layout is the architecture: the engine, then the page format, then the MkDocs hooks, and
inside each package its subpackages in a fixed order. A module may import its own layer or a lower
one, never a higher one, so a layer can be reused (the engine on a bare CUDA runner, the page
format under another site generator) without what is built on it.

Read from the sources with `ast`, so a new module is checked the day it is added, and a new
subpackage that is in no layer fails until it is given one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from helpers import SCRIPTS

# Lowest first. A package's top-level modules are named as "<package>.<module>".
LAYERS: dict[str, list[set[str]]] = {
    "snippet_engine": [
        {"snippet_engine", "snippet_engine.errors", "snippet_engine.protocol", "snippet_engine.snippet_env"},
        {"snippet_engine.source"},
        {"snippet_engine.records"},
        {"snippet_engine.execution"},
        {"snippet_engine.commands"},
    ],
    "question_pages": [
        {"question_pages"},
        {"question_pages.format"},
        {"question_pages.sitewide"},
        {"question_pages.render"},
        {"question_pages.drills"},
        {"question_pages.exports"},
        {"question_pages.site_checks", "question_pages.scaffold"},
    ],
}
# What each package may import from the project's other code, besides itself.
MAY_IMPORT = {
    "snippet_engine": set(),
    "question_pages": {"snippet_engine"},
    "site_search": set(),
    "site_vendor": {"snippet_engine"},
    "mkdocs_site": {"snippet_engine", "question_pages", "site_search", "site_vendor"},
}
PROJECT = {*MAY_IMPORT, "mkdocs_hooks"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SCRIPTS).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, name: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative ones resolved; `name` is
    the module the file stands for when it is not under scripts/."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (name or module_name(path)).split(".")
    if path.name != "__init__.py":
        package.pop()
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            found.append((node.lineno, base))
            # `from pkg import module` imports the module too.
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def layer_of(package: str, name: str) -> int | None:
    """The index of the layer holding `name` (a module or something inside one), or None."""
    best: tuple[int, int] | None = None  # (length of the matched prefix, layer)
    for index, layer in enumerate(LAYERS[package]):
        for prefix in layer:
            if (name == prefix or name.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def sources(package: str) -> list[Path]:
    """A package's modules, or the one module of that name."""
    single = SCRIPTS / f"{package}.py"
    return [single] if single.is_file() else sorted((SCRIPTS / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_every_module_of_a_package_is_in_a_layer(package: str) -> None:
    unplaced = [module_name(p) for p in sources(package) if layer_of(package, module_name(p)) is None]
    assert not unplaced, f"give these modules a layer in LAYERS: {unplaced}"


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_no_module_imports_a_higher_layer(package: str) -> None:
    problems = []
    for path in sources(package):
        own = layer_of(package, module_name(path))
        assert own is not None
        for line, name in imports(path):
            if name.split(".")[0] != package:
                continue
            other = layer_of(package, name)
            if other is not None and other > own:
                problems.append(f"{path.relative_to(SCRIPTS)}:{line}: imports {name}, a higher layer")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    problems = []
    for path in sources(package):
        for line, name in imports(path):
            top = name.split(".")[0]
            if top in PROJECT and top != package and top not in MAY_IMPORT[package]:
                problems.append(f"{path.relative_to(SCRIPTS)}:{line}: imports {name}")
    assert not problems, "\n".join(problems)


def test_the_rules_catch_an_upward_import(tmp_path: Path) -> None:
    """The checks above can fail: a records module that imports the runner is found."""
    fake = SCRIPTS / "snippet_engine" / "records" / "cachekey.py"
    text = fake.read_text(encoding="utf-8") + "\nfrom snippet_engine.execution.runner import plan\n"
    copy = tmp_path / "cachekey.py"
    copy.write_text(text, encoding="utf-8")
    names = [name for _, name in imports(copy, "snippet_engine.records.cachekey")]
    own = layer_of("snippet_engine", "snippet_engine.records.cachekey")
    assert own is not None
    assert any((layer_of("snippet_engine", n) or 0) > own for n in names)

