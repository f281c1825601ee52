"""The file a reader downloads (question_pages/drills/bundle.py) and scripts/drills.py, run for
real with plain python: the starter as downloaded fails, the reference written into it passes,
a mistake judged from another file fails the test it names, and a reader's own helper names do
not disturb the judge."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
from question_pages.drills.bank import load_bank
from question_pages.drills.bundle import bundle
from question_pages.drills.render import download_name

DRILLS = ROOT / "scripts" / "drills.py"
ATTENTION = ROOT / "snippets" / "drills" / "attention-from-scratch"


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300, check=False)


@pytest.fixture(scope="module")
def download(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("download")
    done = run(DRILLS, "bundle", "attention-from-scratch", "-o", folder, cwd=folder)
    assert done.returncode == 0, done.stderr
    path = folder / "drill_attention-from-scratch.py"
    assert done.stdout.strip() == str(path)
    return path


def edited(download: Path, solution: str, name: str) -> Path:
    """The download with its starter replaced by `solution`, as a reader edits it."""
    starter = (ATTENTION / "_starter.py").read_text(encoding="utf-8").rstrip("\n")
    text = download.read_text(encoding="utf-8")
    assert text.count(starter) == 1
    path = download.with_name(name)
    path.write_text(text.replace(starter, solution.rstrip("\n")), encoding="utf-8")
    return path


def test_the_download_as_it_comes_fails_and_says_what_to_write(download: Path) -> None:
    done = run(download.name, cwd=download.parent)
    assert done.returncode == 1, done.stderr
    assert "ERROR shape_and_dtype" in done.stdout
    assert "NotImplementedError: write attention here" in done.stdout
    assert "hint for shape_and_dtype:" in done.stdout
    assert done.stdout.rstrip().endswith("verdict: not yet (0 of 10 tests pass)")


def test_the_reference_written_into_the_download_passes(download: Path) -> None:
    path = edited(download, (ATTENTION / "_reference.py").read_text(encoding="utf-8"), "solved.py")
    done = run(path.name, cwd=path.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("verdict: every test passes (10 of 10 tests pass)")


def test_a_solution_with_helpers_named_like_the_judges_is_judged_on_its_own(download: Path) -> None:
    """`compare`, `main`, `TESTS` and `qkv` are names the judge uses: a reader may use them too."""
    reference = (ATTENTION / "_reference.py").read_text(encoding="utf-8")
    solution = reference + (
        "\n\ndef compare(*args):\n    raise RuntimeError('the judge called the reader\\'s compare')\n"
        "\n\ndef main(*args):\n    raise RuntimeError('the judge called the reader\\'s main')\n"
        "\n\nTESTS = None\nqkv = None\n")
    path = edited(download, solution, "named.py")
    done = run(path.name, cwd=path.parent)
    assert done.returncode == 0, done.stdout + done.stderr


def test_another_file_is_judged_and_its_mistake_named(download: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text((ATTENTION / "_mistake_causal_diagonal.py").read_text(encoding="utf-8"))
    done = run(download, mine, cwd=tmp_path)
    assert done.returncode == 1
    assert "FAIL  causal: " in done.stdout and "hint for causal: " in done.stdout
    again = run(DRILLS, "judge", "attention-from-scratch", mine, cwd=tmp_path)
    assert (again.returncode, again.stdout) == (1, done.stdout), "the CLI and the download agree"


def test_the_cli_lists_the_drills_and_judges_by_exit_status(tmp_path: Path) -> None:
    listed = run(DRILLS, "list", cwd=tmp_path)
    assert listed.stdout.split() == [d.id for d in load_bank(ROOT)]
    good = run(DRILLS, "judge", "attention-from-scratch", ATTENTION / "_reference.py", cwd=tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    missing = run(DRILLS, "judge", "attention-from-scratch", tmp_path / "nope.py", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.py: no such file" in missing.stderr
    broken = tmp_path / "broken.py"
    broken.write_text("def attention(q, k, v\n")
    syntax = run(DRILLS, "judge", "attention-from-scratch", broken, cwd=tmp_path)
    assert syntax.returncode == 2 and "could not be loaded: SyntaxError" in syntax.stderr
    unknown = run(DRILLS, "judge", "attnetion", broken, cwd=tmp_path)
    assert unknown.returncode == 1 and "no drill 'attnetion'. The drills are: " in unknown.stderr


def test_the_download_carries_the_judge_the_records_proved() -> None:
    drill = next(d for d in load_bank(ROOT) if d.id == "attention-from-scratch")
    text = bundle(drill, ROOT)
    assert (ROOT / "snippets" / "_drill.py").read_text(encoding="utf-8") in text
    assert drill.judge.read_text(encoding="utf-8") in text


def test_every_drills_download_is_a_python_file_that_compiles(tmp_path: Path) -> None:
    # "# Drill speculative-decoding: write ..." on line 1 was read as an encoding declaration
    # ("coding: write") and the download did not run at all.
    for drill in load_bank(ROOT):
        path = tmp_path / download_name(drill.id)
        path.write_bytes(bundle(drill, ROOT).encode("utf-8"))
        done = subprocess.run([sys.executable, "-m", "py_compile", str(path)], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, f"{drill.id}: {done.stderr}"
