"""`summary`: what a sharded run recorded and what it did not, as Markdown for a pull request.

The CUDA workflow records on several shards and merges whatever they wrote, even when some of them
failed (one bad snippet must not throw away every other record). Its pull request then has to say
what is missing: the snippets that failed on a shard (from each shard's JSON report), the shards
that sent no report at all (the job died or was cancelled), and every record of the device that
`check` still finds missing, stale or damaged after the merge. The exit status says whether the
run was complete, so the workflow can open the pull request and still end red.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from snippet_engine.protocol import GOOD
from snippet_engine.records.check import find_problems, record_state
from snippet_engine.source.discovery import discover
from snippet_engine.source.options import SnippetOptionError, parse_options


def report_name(device: str, shard: int) -> str:
    """The file name a shard's `run --report` writes, as the workflow names it."""
    return f"{device}-shard-{shard}.json"


@dataclass
class Summary:
    device: str
    shards: int
    recorded: int = 0  # snippets that ran and gave a good result on some shard
    cached: int = 0
    failed: list[tuple[str, str, str]] = field(default_factory=list)  # (path, status, message)
    silent_shards: list[int] = field(default_factory=list)  # no report, or an unreadable one
    problems: list[str] = field(default_factory=list)  # what `check` finds on the device
    # Snippets that declare this device alone (`#| devices: cuda`), as (path, record state): no
    # other device can stand in for them, so each is named, recorded or not.
    only_here: list[tuple[str, str]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not (self.failed or self.silent_shards or self.problems)

    def markdown(self) -> str:
        if self.shards:
            lines = [f"**{self.device.upper()} run: {self.recorded} snippet(s) recorded, "
                     f"{self.cached} already current, {len(self.failed)} failed, "
                     f"{self.shards - len(self.silent_shards)} of {self.shards} shard(s) reported.**"]
        else:
            lines = [f"**{self.device.upper()} records as committed (no run was read).**"]
        if self.only_here:
            awaiting = [path for path, state in self.only_here if state != "current"]
            lines.append(f"\n### {self.device.upper()}-only snippets\n\n"
                         f"{len(self.only_here)} snippet(s) run on {self.device} alone; "
                         f"{len(awaiting)} await their record (their pages say so and show no "
                         "output):\n")
            lines += [f"- `{path}`: " + ("recorded" if state == "current"
                                         else f"awaiting its record ({state})")
                      for path, state in sorted(self.only_here)]
        if self.complete:
            lines.append(f"\nEvery {self.device} record is present and current.")
            return "\n".join(lines) + "\n"
        if self.failed:
            lines.append("\n### Failed\n\nTheir last good record, if any, is kept and marked "
                         "stale (and included here so the mark is seen):\n")
            lines += [f"- `{path}`: {status}: {_one_line(message)}"
                      for path, status, message in sorted(self.failed)]
        if self.silent_shards:
            lines.append("\n### Shards that sent no report\n\nTheir snippets were not recorded; "
                         "read the shard's log in the run:\n")
            lines += [f"- shard {k} of {self.shards}" for k in self.silent_shards]
        if self.problems:
            lines.append(f"\n### Still not current on {self.device} after this run\n\n"
                         f"`python scripts/snippets.py check --device {self.device}` lists:\n")
            lines += [f"- {problem}" for problem in self.problems]
        return "\n".join(lines) + "\n"


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


def summarize(root: Path, device: str, shards: int, reports: Path) -> Summary:
    summary = Summary(device, shards)
    for k in range(1, shards + 1):
        try:
            data = json.loads((reports / report_name(device, k)).read_text(encoding="utf-8"))
            entries = list(data["snippets"])
        except (OSError, ValueError, KeyError, TypeError):
            summary.silent_shards.append(k)
            continue
        for entry in entries:
            if entry.get("device") != device:
                continue
            if entry.get("status") in GOOD:
                if entry.get("cached"):
                    summary.cached += 1
                else:
                    summary.recorded += 1
            else:
                summary.failed.append((entry["path"], entry.get("status", "?"),
                                       entry.get("message", "")))
    failed = {path for path, _, _ in summary.failed}
    summary.problems = [f"`{p.path}`: {p.what}" for p in find_problems(root)
                        if p.device == device and p.path not in failed]
    summary.only_here = only_on(root, device)
    return summary


def only_on(root: Path, device: str) -> list[tuple[str, str]]:
    """(path, state of its record) of every snippet that declares `device` and no other."""
    found: list[tuple[str, str]] = []
    for snippet in discover(root):
        try:
            devices = parse_options(snippet.path).devices
        except SnippetOptionError:
            continue  # check names it
        if tuple(devices) == (device,):
            found.append((snippet.rel, record_state(snippet.path, root, device)[0]))
    return found
