"""The repository itself: every record fresh, every page in the format, a strict build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import ROOT, SCRIPTS, run_cli
from question_pages.validate import question_page_paths


def test_every_cpu_record_is_current() -> None:
    done = run_cli("check", root=ROOT)
    assert done.returncode == 0, done.stdout


def test_every_page_follows_the_format() -> None:
    done = subprocess.run([sys.executable, str(SCRIPTS / "check_pages.py")], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout


def test_strict_build_has_every_question(real_site: Path) -> None:
    pages = question_page_paths(ROOT / "docs")
    assert len(pages) >= 17
    for page in pages:
        rel = page.relative_to(ROOT / "docs").with_suffix("")
        built = real_site / rel / "index.html"
        assert built.exists(), rel
        assert 'id="solid-answer"' in built.read_text()
    assert (real_site / "notebooks" / "export" / "export.ipynb").exists()
