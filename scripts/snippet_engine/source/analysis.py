"""What a snippet's source says about how it must run, read without running it.

Two things decide how a snippet runs, and both come from its source and its helpers':
- which warm worker forks it: one warmed up for export (torch imported, one export done), or one
  also warmed up for compiling (Inductor imported, one compile done). A snippet that compiles
  pays Inductor's first-compile cost (about 9 s) once per worker instead of once per snippet;
  one that never compiles keeps torch's global tables exactly as a fresh process has them.
- whether it needs a fresh interpreter (`fresh_need`, the one decision): torch reads variables
  such as TORCH_LOGS once, at import, so a snippet that sets one before `import torch` would be
  ignored in a worker that imported torch long ago (torch is then imported by the snippet
  itself); a snippet that asks what `sys.modules` holds, or times a first call, would get the
  warm worker's answer; and an author can ask for one (`#| fresh: true`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal

from snippet_engine.snippet_env import TORCH_VARIABLE_PREFIXES
from snippet_engine.source.options import SnippetOptions

# Read when used, not at import (torch._inductor.runtime.cache_dir_utils.cache_dir reads the
# environment on every call): setting one needs no fresh interpreter.
READ_WHEN_USED = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")
# What a snippet that compiles names; an export snippet names none of these.
COMPILE_MARKERS = ("torch.compile", "torch._inductor", "aoti_", "torch._export.aot", "compile_fx")


def warm_kind(sources: list[str]) -> str:
    """'compile' when the snippet or a helper it imports compiles; else 'export'."""
    return "compile" if any(marker in text for text in sources for marker in COMPILE_MARKERS) \
        else "export"


def _is_environ(node: ast.AST) -> bool:
    """`os.environ` (or a bare `environ` imported from os)."""
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ")


def _torch_key(node: ast.AST | None) -> bool:
    """A key naming a torch variable; a key that is not a literal could be one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.startswith(TORCH_VARIABLE_PREFIXES) and node.value not in READ_WHEN_USED
    return True


def torch_environment_line(source: str) -> int | None:
    """The line where the snippet first sets an environment variable torch reads, or None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and _is_environ(target.value) \
                        and _torch_key(target.slice):
                    lines.append(node.lineno)
                elif _is_environ(target):  # os.environ |= {...}
                    lines.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, name = node.func.value, node.func.attr
            if _is_environ(owner) and name in ("setdefault", "update", "__setitem__"):
                key = node.args[0] if node.args and name != "update" else None
                if name == "update" or _torch_key(key):
                    lines.append(node.lineno)
            elif isinstance(owner, ast.Name) and owner.id == "os" and name == "putenv":
                if _torch_key(node.args[0] if node.args else None):
                    lines.append(node.lineno)
    return min(lines) if lines else None


# What a warm worker has already done, which a snippet that asks about it would see instead of a
# fresh interpreter's answer: the modules it imported (`sys.modules`), and the cost of a first
# import, export or compile, which a clock in the snippet would measure.
_CLOCKS = {"time": ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time",
                    "time_ns", "process_time", "process_time_ns", "thread_time",
                    "thread_time_ns"),
           "timeit": ("timeit", "repeat", "default_timer", "Timer"),
           "sys": ("modules",)}
# A clock as a whole module: torch.utils.benchmark's Timer times whatever its statement does,
# a first compile included (`Timer.timeit(1)`, and the first block `blocked_autorange` sizes
# itself with), so any use of it measures what the warm worker has already paid.
_CLOCK_MODULES = ("torch.utils.benchmark",)


def _dotted(node: ast.AST) -> str | None:
    """`a.b.c` for an attribute chain on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _is_clock_module(module: str) -> bool:
    return any(module == clock or module.startswith(clock + ".") for clock in _CLOCK_MODULES)


def interpreter_inspection(source: str) -> tuple[int, str] | None:
    """(line, what) where the snippet first asks about the interpreter it runs in (what
    `sys.modules` holds, or a clock, which would time a first call the warm worker already paid
    for), or None. Only real code counts: a string run in a subprocess is a fresh process.

    A module is followed under any name it is imported as (`import time as clock`,
    `import sys as s`), since the name is the author's choice and the clock is the same."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    # The names the snippet gives the modules of _CLOCKS: the module's own (a plain
    # `import time`, or one imported by a helper and reached as `time`) and every alias.
    names = {module: module for module in _CLOCKS}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in _CLOCKS:
                    names[alias.asname] = alias.name
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in names and node.attr in _CLOCKS[names[node.value.id]]:
            found.append((node.lineno, f"{names[node.value.id]}.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module in _CLOCKS:
            for alias in node.names:
                if alias.name in _CLOCKS[node.module]:
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if _is_clock_module(f"{node.module}.{alias.name}") \
                        or _is_clock_module(node.module):
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names
                      if _is_clock_module(alias.name)]
        elif isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted is not None and _is_clock_module(dotted):
                found.append((node.lineno, dotted))
    return min(found) if found else None


RENDEZVOUS_PORT = "MASTER_PORT"


def rendezvous_port_default(source: str) -> str | None:
    """The default rendezvous port a multi-process snippet falls back on
    (`os.environ.setdefault("MASTER_PORT", "29500")`, or `.get` with a default), or None.

    Two such snippets run at once by parallel jobs would both take that port, and the second
    would fail (EADDRINUSE) or join the other's group; the worker gives each its own free port
    through the environment instead, and writes the default back where the output shows the
    port, so the record is what a `python snippet.py` run alone prints."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("setdefault", "get") and _is_environ(node.func.value) \
                and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value == RENDEZVOUS_PORT \
                and isinstance(node.args[1], ast.Constant) and str(node.args[1].value).isdigit():
            return str(node.args[1].value)
    return None


Reason = Literal["torch-variable", "option", "inspects-interpreter"]


@dataclass(frozen=True)
class FreshNeed:
    """Why a snippet runs in a new interpreter instead of a child forked from a warm worker: the
    one decision, used by the engine to run it and by the notebooks to show it."""

    reason: Reason
    line: int  # the snippet's line that decides it (the option line for `#| fresh: true`)
    why: str  # for a person: "it ..."

    @property
    def defer_torch(self) -> bool:
        """torch must be imported by the snippet itself: after it has set torch's variables, and
        for every other reason too, since a snippet that needs a fresh interpreter asks what a
        fresh one does, its first `import torch` included (`import time as clock` around
        `import torch` timed an import the engine had already made)."""
        return True


def fresh_need(source: str, options: SnippetOptions) -> FreshNeed | None:
    """Whether, and why, a snippet needs a fresh interpreter: it sets a variable torch reads at
    import (then torch is imported by the snippet itself), it says so (`#| fresh: true`), or it
    inspects the interpreter (`sys.modules`, a clock), whose answer a warm worker would change."""
    line = torch_environment_line(source)
    if line is not None:
        return FreshNeed("torch-variable", line, "it sets an environment variable torch reads "
                         f"when it is first imported (line {line})")
    if options.fresh:
        return FreshNeed("option", options.lines.get("fresh", 1),
                         "it declares `#| fresh: true`: it must see torch imported for the first "
                         "time")
    inspected = interpreter_inspection(source)
    if inspected is not None:
        line, what = inspected
        return FreshNeed("inspects-interpreter", line,
                         f"it asks about the interpreter it runs in (`{what}`, line {line}), "
                         "which must be a fresh one's answer")
    return None


KINDS = ("export", "compile", "aoti", "deployment")


def snippet_kind(rel: str, source: str) -> str:
    """What kind of work a snippet does, for the benchmark's figures and the test command's
    coverage (not for how it runs): AOTInductor (a C++ compile and a package), compile (forked
    from the Inductor-warm worker), deployment (ONNX, torchao, ExecuTorch), or export."""
    if "aoti_" in source:
        return "aoti"
    if warm_kind([source]) == "compile":
        return "compile"
    return "deployment" if rel.startswith("snippets/deployment/") else "export"
