"""`snippets.py verify-changed --since REF`, on a scratch git repository: the records a
submission changed are re-run, a forged one (output and digest both rewritten) fails, an
honest one passes, and the records the submission did not touch are not run at all."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.records.record_file import read_record, write_atomic


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture
def base(repo: Path) -> Path:
    """A repository whose records are committed, as a submission's base."""
    write(repo, "snippets/t/a.py", "print(2 + 2)\n")
    write(repo, "snippets/t/b.py", "print('b')\n")
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    git(repo, "init", "-q", "-b", "main")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base")
    return repo


def forge(path: Path, output: str) -> None:
    """What a person who also recomputes the digest can do: rewrite the output consistently."""
    record = read_record(path)
    assert record is not None
    write_atomic(path, dataclasses.replace(record, output=output).render())


def test_a_forged_record_fails_and_an_untouched_one_is_not_run(base: Path, record_of) -> None:
    forge(record_of(base, "snippets/t/a.py"), "5\n")
    assert run_cli("check", root=base).returncode == 0  # the digest alone cannot see it
    git(base, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "forged")
    done = run_cli("verify-changed", "--since", "HEAD~1", "--progress", "never", root=base)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL snippets/t/a.cpu.txt: its output is not what the snippet prints" in done.stdout
    assert "-5\n+4\n" in done.stdout
    assert "b.cpu.txt" not in done.stdout  # not changed, not run
    assert "1 cpu record(s) changed since HEAD~1" in done.stdout
    assert read_record(record_of(base, "snippets/t/a.py")).output == "5\n"  # nothing rewritten


def test_an_honest_change_passes(base: Path, record_of) -> None:
    write(base, "snippets/t/a.py", "print(3 + 3)\n")
    write(base, "snippets/t/c.py", "print('new')\n")  # a new snippet, its record not committed
    assert run_cli("run", "--progress", "never", root=base).returncode == 0
    done = run_cli("verify-changed", "--since", "main", "--progress", "never", root=base)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   snippets/t/a.cpu.txt" in done.stdout and "ok   snippets/t/c.cpu.txt" in done.stdout
    assert "2 cpu record(s) changed since main: each prints what its record says" in done.stdout


def test_an_unknown_ref_is_refused(base: Path) -> None:
    done = run_cli("verify-changed", "--since", "no-such-branch", root=base)
    assert done.returncode == 2
    assert "no commit 'no-such-branch'" in done.stderr and "fetch-depth: 0" in done.stderr
