"""The API names a snippet uses, for the site search: what a reader types (`all_reduce`,
`dist.all_reduce`, `torch.distributed.all_reduce`, `find_unused_parameters`), not the code.

The code and outputs of a snippet stay out of the index (they are most of a page's words:
keywords, variable names, numbers and printed values would make every page match every query),
but prose often writes a name as a reader does not type it ("all-reduce"), so a reader pasting
`all_reduce hang` would not find the page whose code shows the hang. Each snippet therefore
carries, beside its code, the PyTorch names it calls: imported submodules and names, dotted names
rooted in an import (as written and with the import's alias expanded), attribute and keyword
names with an underscore. They are indexed at a low weight (NAMES_WEIGHT) from an empty element's
attribute: the page shows nothing more, and a page that only uses a name ranks below one that
discusses it.
"""

from __future__ import annotations

import ast
import html

# Pagefind's data-pagefind-weight for the names (1 is prose; quadratic, so 0.5 counts a quarter).
NAMES_WEIGHT = 0.5


def _chain(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None if the chain does not start at a plain name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _torch(module: str) -> bool:
    """Whether `module` is PyTorch's (the standard library's names are not what readers search
    this site for)."""
    return module == "torch" or module.startswith(("torch.", "torchvision", "torchao", "functorch"))


def code_names(source: str) -> list[str]:
    """The API names `source` uses, in order of first use, each once."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    aliases: dict[str, str] = {}  # the name bound by an import: what it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for name in node.names:
                aliases[(name.asname or name.name).split(".")[0]] = (
                    name.name if name.asname else name.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for name in node.names:
                if name.name != "*":
                    aliases[name.asname or name.name] = f"{node.module}.{name.name}"
    found: dict[str, None] = {}

    def add(name: str) -> None:
        if name and not name.startswith("__"):
            found.setdefault(name, None)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for name in node.names:
                if _torch(name.name) and "." in name.name:  # not "torch": every page has it
                    add(name.name)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if _torch(node.module):
                add(node.module)
                for name in node.names:
                    if name.name != "*":
                        add(name.name)
        elif isinstance(node, ast.Attribute):
            parts = _chain(node)
            if parts and parts[0] in aliases:
                if _torch(aliases[parts[0]]):
                    add(".".join(parts))
                    add(".".join([aliases[parts[0]], *parts[1:]]))
                    if "_" in node.attr.strip("_"):
                        add(node.attr)
            elif "_" in node.attr.strip("_"):  # a method or attribute of an object: zero_grad
                add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg and "_" in node.arg.strip("_"):
            add(node.arg)
    return list(found)


def names_block(source: str) -> str:
    """The HTML that puts `source`'s API names in the search index and nowhere else; an empty
    string when it uses none."""
    names = code_names(source)
    if not names:
        return ""
    value = html.escape(" ".join(names), quote=True)
    # Three paragraphs, not one line: inside a follow-up or a tab (indented Markdown) a one-line
    # <div><span></span></div> is wrapped in a <p>, which cannot hold a <div>; this way the
    # <div> lines stand alone and the <span> gets a <p> inside the <div>, valid either way.
    return (f'<div class="search-names" hidden data-pagefind-weight="{NAMES_WEIGHT}">\n\n'
            f'<span data-pagefind-index-attrs="data-search-names" data-search-names="{value}">'
            "</span>\n\n</div>")
