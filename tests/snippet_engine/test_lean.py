"""The engine runs on a bare CUDA runner: it imports the standard library and torch, nothing else."""

import ast
import sys
from pathlib import Path

from helpers import SCRIPTS

ENGINE = SCRIPTS / "snippet_engine"
ALLOWED = set(sys.stdlib_module_names) | {"torch", "numpy", "snippet_engine"}


def imported_top_level(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_stdlib_and_torch() -> None:
    files = [*sorted(ENGINE.rglob("*.py")), SCRIPTS / "snippets.py"]
    assert len(files) > 20  # every layer of the engine
    for path in files:
        extra = imported_top_level(path) - ALLOWED
        assert not extra, f"{path.name} imports {sorted(extra)}"
