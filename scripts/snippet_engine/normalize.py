"""Make captured output byte-identical on any machine and on every run.

Only what varies between runs or machines is replaced: paths (the checkout, the temporary working
directory, the interpreter and site-packages), memory addresses, and the timestamps and process ids
that log lines carry. Everything else is kept exactly, so the record stays what torch printed.
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,16}\b")
# glog-style prefix used by torch's C++ and Python logging: "I1130 18:47:31.123456 4242 file.py:12]"
_GLOG = re.compile(r"^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+ +\d+ ", re.MULTILINE)
_ISO_TIME = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b")
_CLOCK = re.compile(r"\[\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]")
_PID = re.compile(r"\b(pid|PID|process id)([ =:]+)\d+\b")


def torch_shortened(path: str, torch_dir: str) -> str:
    """How torch itself abbreviates `path` in messages (torch.utils._traceback.shorten_filename):
    it cuts the part that `path` shares with torch's own folder, wherever that folder is."""
    try:
        prefix = os.path.commonpath([path, torch_dir])
    except ValueError:
        return path
    return path[len(prefix) + 1:]


@dataclass(frozen=True)
class PathContext:
    """Absolute paths to shorten, most specific first, then torch's own abbreviations of them."""

    replacements: tuple[tuple[str, str], ...]
    abbreviations: tuple[tuple[str, str], ...] = ()

    @classmethod
    def build(cls, repo_root: Path, task_dir: Path | None = None,
              work_dir: Path | None = None) -> PathContext:
        pairs: list[tuple[str, str]] = []
        if work_dir is not None:
            pairs.append((str(work_dir), "<cwd>"))
        if task_dir is not None:
            pairs.append((str(task_dir), "<tmp>"))
        paths = sysconfig.get_paths()
        for name in ("purelib", "platlib"):
            pairs.append((paths[name], "<site-packages>"))
        for name in ("stdlib", "platstdlib"):
            pairs.append((paths[name], "<python>"))
        pairs.append((sys.executable, "python"))
        pairs.append((str(repo_root), "<repo>"))
        pairs.append((sys.prefix, "<prefix>"))
        pairs.append((sys.base_prefix, "<prefix>"))
        expanded: list[tuple[str, str]] = []
        for path, label in pairs:
            for variant in {path, str(Path(path).resolve())}:
                if variant and variant != "/":
                    expanded.append((variant, label))
        # Longest first, so site-packages inside a venv inside the checkout wins over the checkout.
        expanded.sort(key=lambda pair: len(pair[0]), reverse=True)
        # torch prints a file under the folder it shares with torch's install as a relative path
        # ("Caused by: (snippets/t/x.py:9 in forward)" when the venv is inside the checkout); with
        # the venv elsewhere that relative path starts with part of the checkout's own path.
        torch_dir = Path(paths["purelib"]) / "torch"
        short: list[tuple[str, str]] = []
        for folder, label in ((repo_root, ""), (work_dir, "<cwd>/")):
            if folder is None:
                continue
            for torch_variant in {str(torch_dir), str(torch_dir.resolve())}:
                for folder_variant in {str(folder), str(Path(folder).resolve())}:
                    cut = torch_shortened(folder_variant, torch_variant)
                    if cut and cut != folder_variant and (cut + "/", label) not in short:
                        short.append((cut + "/", label))
        short.sort(key=lambda pair: len(pair[0]), reverse=True)
        return cls(tuple(expanded), tuple(short))


def normalize(raw: bytes | str, context: PathContext) -> str:
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    text = text.replace("\r\n", "\n")
    text = _ANSI.sub("", text)
    for path, label in context.replacements:
        if label == "<repo>":
            # The snippet's own path reads as it does in the repository: snippets/topic/name.py
            text = text.replace(path + "/", "")
            text = text.replace(path, ".")
        else:
            text = text.replace(path, label)
    for shortened, label in context.abbreviations:
        text = text.replace(shortened, label)
    text = _GLOG.sub(r"\1<time> <pid> ", text)
    text = _ISO_TIME.sub("<time>", text)
    text = _CLOCK.sub("[<time>]", text)
    text = _PID.sub(r"\1\2<pid>", text)
    text = _ADDRESS.sub("0x<addr>", text)
    return text
