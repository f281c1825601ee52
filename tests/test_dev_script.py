"""scripts/dev.sh sets up with the Python the records are made with, and refuses any other by
name: a venv of another Python would call every record stale and re-record the bank."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from helpers import ROOT

BASH = shutil.which("bash") or "/bin/bash"


def fake_python(folder: Path, name: str, minor: str) -> Path:
    """An 'interpreter' that answers dev.sh's version question with `minor` and does nothing
    else (a real set-up must never start in these tests)."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{BASH}\necho {minor}\n")
    path.chmod(0o755)
    return path


def checkout(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "dev.sh", tmp_path / "scripts" / "dev.sh")
    return tmp_path


def dev_sh(root: Path, path: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([BASH, str(root / "scripts" / "dev.sh"), "setup"], capture_output=True,
                          text=True, timeout=60, check=False,
                          env={"PATH": path, "HOME": str(root), **env})


def tools(tmp_path: Path) -> Path:
    """A PATH folder with only what dev.sh needs before it picks a Python."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("dirname",):
        os.symlink(shutil.which(tool) or f"/usr/bin/{tool}", folder / tool)
    return folder


def test_another_python_named_by_PYTHON_is_refused_by_name(tmp_path: Path) -> None:
    root = checkout(tmp_path / "repo")
    python = fake_python(tmp_path / "py", "python3", "3.12")
    done = dev_sh(root, str(tools(tmp_path)), PYTHON=str(python))
    assert done.returncode == 2
    assert f"{python} is Python 3.12, not 3.11" in done.stderr, done.stderr
    assert "python3.11" in done.stderr and not (root / ".venv").exists()


def test_no_python311_on_path_is_refused_not_replaced_by_python3(tmp_path: Path) -> None:
    root = checkout(tmp_path / "repo")
    folder = tools(tmp_path)
    fake_python(folder, "python3", "3.12")
    done = dev_sh(root, str(folder))
    assert done.returncode == 2
    assert "no python3.11 on PATH" in done.stderr, done.stderr
    assert not (root / ".venv").exists()


def test_a_venv_of_another_python_is_refused_with_the_fix(tmp_path: Path) -> None:
    root = checkout(tmp_path / "repo")
    fake_python(root / ".venv" / "bin", "python", "3.12")
    done = dev_sh(root, str(tools(tmp_path)))
    assert done.returncode == 2
    assert ".venv was made with Python 3.12, not 3.11" in done.stderr, done.stderr
    assert "rm -rf .venv" in done.stderr
