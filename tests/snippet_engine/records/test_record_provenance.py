"""A record stands only for the snippet at its own path: one copied or renamed together with its
snippet is not current, however well its key matches, and `run` records it again."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import run_cli, write
from snippet_engine.records.record_file import read_record

# Prints its own path, as 14 of the bank's records do (a traceback, a printed __file__).
PRINTS_ITS_PATH = "print('I am', __file__)\n"


def test_a_record_copied_with_its_snippet_fails_check_until_it_is_run(repo: Path,
                                                                      record_of) -> None:
    write(repo, "snippets/t/a.py", PRINTS_ITS_PATH)
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    shutil.copy(repo / "snippets/t/a.py", repo / "snippets/t/b.py")
    shutil.copy(record_of(repo, "snippets/t/a.py"), record_of(repo, "snippets/t/b.py"))

    done = run_cli("check", root=repo)
    assert done.returncode == 1, done.stdout
    assert "snippets/t/b.py [cpu]: stale:" in done.stdout
    assert "snippets/t/a.py" in done.stdout.split("snippets/t/b.py [cpu]: stale:", 1)[1]
    assert "FAIL snippets/t/a.py" not in done.stdout  # the original is still current

    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    record = read_record(record_of(repo, "snippets/t/b.py"))
    assert record is not None
    assert (record.snippet, record.output) == ("snippets/t/b.py", "I am snippets/t/b.py\n")
    assert run_cli("check", root=repo).returncode == 0


def test_a_snippet_renamed_with_its_record_fails_check(repo: Path, record_of) -> None:
    write(repo, "snippets/t/old_name.py", "print('same output')\n")
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    (repo / "snippets/other").mkdir()
    (repo / "snippets/t/old_name.py").rename(repo / "snippets/other/new_name.py")
    record_of(repo, "snippets/t/old_name.py").rename(record_of(repo, "snippets/other/new_name.py"))

    done = run_cli("check", root=repo)
    assert done.returncode == 1
    assert "snippets/other/new_name.py [cpu]: stale:" in done.stdout
    # Its output does not change, but the record is rewritten with its own path.
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    record = read_record(record_of(repo, "snippets/other/new_name.py"))
    assert record is not None and record.snippet == "snippets/other/new_name.py"
    assert run_cli("check", root=repo).returncode == 0


def test_an_output_edited_by_hand_fails_check_and_run_records_it_again(repo: Path,
                                                                       record_of) -> None:
    write(repo, "snippets/t/a.py", "print(2 + 2)\n")
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    path = record_of(repo, "snippets/t/a.py")
    path.write_text(path.read_text().replace("\n4\n", "\n5\n"))
    done = run_cli("check", root=repo)
    assert done.returncode == 1
    assert "snippets/t/a.py [cpu]: damaged:" in done.stdout
    assert "edited after the run wrote it" in done.stdout
    assert run_cli("run", "--progress", "never", root=repo).returncode == 0
    record = read_record(path)
    assert record is not None and record.output == "4\n"
    assert run_cli("check", root=repo).returncode == 0
