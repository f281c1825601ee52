"""The engine's errors share one base, so the command line catches them by type and prints the
message (file, line, fix) instead of a traceback; each keeps the base callers outside relied on."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.commands.drift import DriftError
from snippet_engine.errors import ProjectError
from snippet_engine.execution.scheduler import WorkerCrashed
from snippet_engine.records.environment import DeviceUnavailable
from snippet_engine.records.record_file import RecordError
from snippet_engine.source.options import SnippetOptionError


@pytest.mark.parametrize(("error", "old_base"), [
    (RecordError, ValueError), (SnippetOptionError, ValueError), (DriftError, RuntimeError),
    (WorkerCrashed, RuntimeError), (DeviceUnavailable, RuntimeError)])
def test_every_engine_error_is_a_project_error(error: type, old_base: type) -> None:
    assert issubclass(error, ProjectError) and issubclass(error, old_base)


def test_run_prints_a_bad_option_line_as_one_message(repo: Path) -> None:
    write(repo, "snippets/t/a.py", "#| colour: blue\nprint(1)\n")
    done = run_cli("run", root=repo, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "snippets/t/a.py:1: unknown option 'colour'. Known options:" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_record_that_is_not_utf8_is_damaged_not_a_crash(repo: Path, record_of) -> None:
    write(repo, "snippets/t/a.py", "print(1)\n")
    record_of(repo, "snippets/t/a.py").write_bytes(b"\xff\xfe not text\n")
    done = run_cli("check", root=repo, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "snippets/t/a.py [cpu]: damaged:" in done.stdout and "not UTF-8 text" in done.stdout
    assert "Traceback" not in done.stderr
