"""What of a recorded output a reader scans past, so the page can fold it behind a toggle.

torch's error messages end in debugging boilerplate (where to set TORCH_LOGS, a link to a
document, the C++ stack hint), and a data-dependent error prints the graph traced so far, often
twice. A reader wants the exception line and the lines that explain it. The page shows those, says
how many lines it folded, and keeps the whole record one click away; the record itself is never
changed. The rules are a closed list of torch's own phrases: anything else is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Lines of torch's messages that say how to debug further, not what went wrong (torch 2.13.0:
# torch/fx/experimental/symbolic_shapes.py, torch/_dynamo/exc.py, torch/export/_trace.py).
BOILERPLATE = (
    "For more information, run with TORCH_LOGS=",
    "For extended logs when we create symbols",
    "If you suspect the guard was triggered from C++",
    "For more debugging help, see",
    "For C++ stack trace, run with",
    "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace",
    "The error above occurred when calling torch.export.export",
    "For more details about this graph break, please visit",
    "Developer debug context:",
)
# Printed with a data-dependent error: the graph traced up to the guard that failed.
GRAPH_DUMP_START = re.compile(r"^def forward\(self")
DATA_DEPENDENT = "Could not guard on data-dependent expression"
FOLD_AT_LEAST = 4  # folding fewer lines than this saves the reader nothing


@dataclass(frozen=True)
class Folded:
    shown: str  # the lines kept, in order, ending in a newline
    folded: int  # how many non-blank lines were left out of `shown`


def _is_boilerplate(line: str) -> bool:
    return line.strip().startswith(BOILERPLATE)


def fold(text: str, whole: str | None = None) -> Folded | None:
    """The output without torch's debugging boilerplate and graph dumps, or None when folding
    would hide fewer than FOLD_AT_LEAST lines (then the page shows the output as it is).
    `whole`: the record's entire output when `text` is a part of it (what a snippet printed
    before its expected error): the graph dumps are printed before the message that names them."""
    lines = text.rstrip("\n").split("\n")
    keep = [True] * len(lines)
    dumps = DATA_DEPENDENT in (text if whole is None else whole)
    index = 0
    while index < len(lines):
        line = lines[index]
        if _is_boilerplate(line):
            keep[index] = False
        elif dumps and GRAPH_DUMP_START.match(line):
            end = index + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith(" ")):
                end += 1
            for hidden in range(index, end):
                keep[hidden] = False
            index = end
            continue
        index += 1
    kept: list[str] = []
    for line, shown in zip(lines, keep, strict=True):
        if not shown:
            continue
        if not line.strip() and (not kept or not kept[-1].strip()):
            continue  # no blank line first or twice: they were around what was folded
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    folded = sum(1 for line, shown in zip(lines, keep, strict=True) if not shown and line.strip())
    if folded < FOLD_AT_LEAST:
        return None
    return Folded("\n".join(kept) + "\n", folded)
