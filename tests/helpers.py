"""Helpers shared by the tests: the repository root, the scripts folder on sys.path, a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))


def run_cli(*args: str, root: Path, env: dict | None = None, timeout: float = 900,
            python_flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """Run scripts/snippets.py for real, against the repository at `root`."""
    full_env = {k: v for k, v in os.environ.items() if k != "CI"}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, *python_flags, str(SCRIPTS / "snippets.py"), "--root", str(root), *args],
        capture_output=True, text=True, timeout=timeout, env=full_env, check=False)


def mkdocs_env() -> dict[str, str]:
    """The environment every MkDocs run of the tests gets, as everywhere the project runs MkDocs:
    Material 9.8 prints a banner about MkDocs 2 unless NO_MKDOCS_2_WARNING is set, and the
    properdocs package it pulls in prints another unless DISABLE_MKDOCS_2_WARNING=true."""
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped (a container's init may never reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


# What a snippet writes for a test to find a process it started (`host_pid`): its /proc stat line.
# In a pid namespace of its own (snippet_engine.execution.namespaces) the pid a snippet sees is
# not this machine's.
def host_pid(stat: str) -> int | None:
    """This machine's pid of the process whose `/proc/<pid>/stat` line a snippet wrote, found by
    its pid in its own namespace (the last of `NSpid`) and its start time, which no namespace
    changes; None once it is gone (or a zombie reaped since)."""
    fields = stat.rsplit(")", 1)
    inner, start = int(fields[0].split()[0]), fields[1].split()[19]
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            ns_pids = next(line for line in status.read_text().splitlines()
                           if line.startswith("NSpid:")).split()[1:]
            if int(ns_pids[-1]) != inner:
                continue
            if (status.parent / "stat").read_text().rsplit(")", 1)[1].split()[19] == start:
                return int(status.parent.name)
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    return None


def still_running(stat: str) -> bool:
    """Whether the process whose stat line a snippet wrote still runs (`host_pid`, `alive`)."""
    pid = host_pid(stat)
    return pid is not None and alive(pid)
