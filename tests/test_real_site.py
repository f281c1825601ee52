"""The repository itself: every record fresh, every page in the format, a strict build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import ROOT, SCRIPTS, run_cli
from question_pages.format.loading import question_page_paths


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


def test_a_helper_module_is_shown_exactly_as_the_file_is(real_site: Path) -> None:
    """The unflatten page shows `_unflatten_models.py` through the helper marker: every line of the
    file, in order, so the page cannot drift from what the snippets import."""
    import html
    import re

    built = (real_site / "export" / "unflatten-and-module-calls" / "index.html").read_text()
    block = built[built.index("snippets/export/_unflatten_models.py"):]
    block = block[re.search(r"<code[^>]*>", block).start():]  # type: ignore[union-attr]
    code = html.unescape(re.sub(r"<[^>]+>", "", block[:block.index("</code>")]))
    source = (ROOT / "snippets" / "export" / "_unflatten_models.py").read_text()
    lines = [line for line in source.splitlines() if line.strip()]
    shown = [line for line in code.splitlines() if line.strip()]
    assert shown == lines
