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
