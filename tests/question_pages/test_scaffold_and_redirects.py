"""Adding a page with the scaffold, and moving a page: both leave the site consistent."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import SCRIPTS
from question_pages.format.loading import load_pages
from question_pages.format.published import read_ledger
from site_fixture import build


@pytest.fixture
def copy(site_source: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(site_source, dest, ignore=shutil.ignore_patterns("site", ".cache"))
    return dest


def test_scaffold_writes_page_snippet_and_ledger_entry(copy: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "new_question.py"), "export", "brand-new",
         "--question", "How does a brand new thing work?", "--level", "senior", "--root", str(copy)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    page = copy / "docs/export/brand-new.md"
    assert page.exists() and (copy / "snippets/export/brand_new.py").exists()
    listed = {uri for _, uri in read_ledger(copy)}
    assert {"export/brand-new.md", "notebooks/export/brand-new.ipynb"} <= listed
    assert "docs/published-urls.txt (+ notebooks/export/brand-new.ipynb)" in done.stdout
    _, errors = load_pages(copy)
    mine = [str(e) for e in errors if e.rel == "docs/export/brand-new.md"]
    # Placeholders and the unrecorded snippet are reported until the contributor does the work.
    assert any("unfinished placeholder" in e for e in mine)
    assert any("CPU record of snippets/export/brand_new.py is missing" in e for e in mine)
    again = subprocess.run(
        [sys.executable, str(SCRIPTS / "new_question.py"), "export", "brand-new",
         "--question", "Again?", "--level", "senior", "--root", str(copy)],
        capture_output=True, text=True, check=False)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_moving_a_page_needs_a_redirect(copy: Path) -> None:
    (copy / "docs/export/other-page.md").rename(copy / "docs/export/renamed-page.md")
    for page in (copy / "docs/export").glob("*.md"):
        page.write_text(page.read_text().replace("export/other-page]", "export/renamed-page]"))
    ledger = copy / "docs/published-urls.txt"
    ledger.write_text(ledger.read_text()
                      + "export/renamed-page.md\nnotebooks/export/renamed-page.ipynb\n")
    done = build(copy)
    assert done.returncode != 0
    assert "'export/other-page.md' was published but is no longer a page" in done.stderr

    config = copy / "mkdocs.yml"
    config.write_text(config.read_text().replace(
        "redirect_maps: {}", "redirect_maps:\n        export/other-page.md: export/renamed-page.md"))
    done = build(copy)
    assert done.returncode == 0, done.stderr[-2000:]
    redirect = (copy / "site/export/other-page/index.html").read_text()
    assert "../renamed-page/" in redirect
    # The page's notebook moves with it; the old download address serves the new notebook.
    notebooks = copy / "site/notebooks/export"
    assert (notebooks / "other-page.ipynb").read_bytes() == (notebooks / "renamed-page.ipynb").read_bytes()


def test_an_unlisted_page_fails_until_listed(copy: Path) -> None:
    ledger = copy / "docs/published-urls.txt"
    ledger.write_text(ledger.read_text().replace("export/good-page.md\n", ""))
    done = build(copy)
    assert done.returncode != 0 and "page 'export/good-page.md' is not listed" in done.stderr
