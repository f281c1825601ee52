"""One id rule for the page checks and the browser (issue 27, item 11): a page whose path is not a
question id that progress-core.js accepts is refused by check_pages, with the file and the fix."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import ROOT
from question_pages.format.ids import QUESTION_ID, id_problem
from question_pages.format.loading import load_pages
from site_fixture import FIXTURES

CORE = ROOT / "docs" / "assets" / "javascripts" / "progress-core.js"
PROGRESS = CORE.with_name("progress.js")


def test_the_browser_uses_the_same_rule() -> None:
    found = re.search(r"^\s*var ID = /(.+)/;$", CORE.read_text(encoding="utf-8"), re.M)
    assert found, "progress-core.js no longer declares `var ID = /.../;`"
    assert found.group(1).replace("\\/", "/") == QUESTION_ID.pattern
    # progress.js marks the navigation without loading progress-core.js: the same rule, and the
    # same storage version.
    progress = PROGRESS.read_text(encoding="utf-8")
    copy = re.search(r"return /(.+)/\.test\(id\) \? id : null;  // ids.py's rule", progress)
    assert copy and copy.group(1).replace("\\/", "/") == QUESTION_ID.pattern
    texts = (progress, CORE.read_text(encoding="utf-8"))
    versions = [re.search(r"var VERSION = (\d+);", text) for text in texts]
    assert all(versions) and len({v.group(1) for v in versions if v}) == 1


def test_every_page_of_the_bank_has_a_valid_id() -> None:
    pages, _ = load_pages(ROOT)
    assert pages and all(id_problem(p.page_id) is None for p in pages)


def test_a_page_with_a_dot_in_its_name_is_refused(site_source: Path) -> None:
    page = site_source / "docs" / "export" / "torch.draft-export.md"
    page.write_text((FIXTURES / "good-page.md").read_text())
    try:
        _, errors = load_pages(site_source)
    finally:
        page.unlink()
    mine = [e for e in errors if e.rel == "docs/export/torch.draft-export.md" and "question id" in e.what]
    assert mine, [str(e) for e in errors]
    assert "docs/export/torch-draft-export.md" in mine[0].fix
    for bad in ("export/torch.draft-export", "Export/x", "export/x_y", "export/-x", "export/x--y", "a/b/c"):
        assert id_problem(bad), bad
