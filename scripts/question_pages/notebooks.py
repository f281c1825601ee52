"""Each topic's snippets as a Jupyter notebook holding the recorded outputs.

The notebook is built from the snippets and their committed CPU records, never executed again, so
it shows exactly what the site shows; a reader downloads it and runs it on their own torch.
"""

from __future__ import annotations

import json
from pathlib import Path

from snippet_engine.discovery import Snippet
from snippet_engine.records import read_record

from .catalog import learning_order
from .model import Page
from .pins import pinned_torch
from .snippet_blocks import split_expected_error
from .validate import snippet_refs


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _strip_options(source: str) -> str:
    lines = source.splitlines(keepends=True)
    while lines and lines[0].startswith("#|"):
        lines.pop(0)
    return "".join(lines).lstrip("\n")


def build_notebook(topic: str, pages: list[Page], root: Path) -> dict:
    pinned = pinned_torch(root)
    cells: list[dict] = [{
        "cell_type": "markdown", "metadata": {},
        "source": _lines(
            f"# {topic}: every snippet of the topic, with its recorded output\n\n"
            f"The outputs below were recorded on torch {pinned} (CPU) by the site's snippet engine; "
            "this notebook was built from those records, not executed again. Run it yourself to "
            "compare with your torch. A cell marked *expected error* raises on purpose.\n"),
    }]
    seen: set[str] = set()
    for page in learning_order([p for p in pages if p.meta["topic"] == topic]):
        refs = [ref for _, ref, _ in snippet_refs(page) if ref not in seen]
        if not refs:
            continue
        cells.append({"cell_type": "markdown", "metadata": {},
                      "source": _lines(f"## {page.question}\n")})
        for ref in refs:
            seen.add(ref)
            path = root / "snippets" / ref
            record = read_record(Snippet(path, f"snippets/{ref}").record_path("cpu"))
            note = f"`snippets/{ref}`"
            outputs: list[dict] = []
            if record is not None:
                note += (f", recorded {record.recorded.split('T')[0]} with torch {record.torch}"
                         + (" (expected error)" if record.status == "expected-error" else ""))
                if record.status == "expected-error":
                    printed, error = split_expected_error(record)
                    if printed:
                        outputs.append({"output_type": "stream", "name": "stdout",
                                        "text": _lines(printed)})
                    outputs.append({"output_type": "error", "ename": record.error_type,
                                    "evalue": error.split(": ", 1)[-1].rstrip("\n"),
                                    "traceback": error.rstrip("\n").split("\n")})
                elif record.output:
                    outputs.append({"output_type": "stream", "name": "stdout",
                                    "text": _lines(record.output)})
            cells.append({"cell_type": "markdown", "metadata": {}, "source": _lines(note + "\n")})
            cells.append({"cell_type": "code", "execution_count": None,
                          "metadata": {"snippet": f"snippets/{ref}"},
                          "outputs": outputs,
                          "source": _lines(_strip_options(path.read_text(encoding="utf-8")))})
    for index, cell in enumerate(cells):
        cell["id"] = f"cell-{index}"
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "torch_recorded": pinned,
        },
        "nbformat": 4, "nbformat_minor": 5,
    }


def write_notebooks(pages: list[Page], root: Path, out_dir: Path, topics: list[str]) -> list[Path]:
    """Write notebooks/<topic>.ipynb under out_dir for every declared topic; return their paths."""
    written = []
    for topic in topics:
        path = out_dir / "notebooks" / f"{topic}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(build_notebook(topic, pages, root), indent=1, ensure_ascii=False) + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
