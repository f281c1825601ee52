"""One id rule for the page checks and the browser (issue 27, item 11): a page whose path is not a
question id that progress-core.js accepts is refused by check_pages, with the file and the fix."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import ROOT
from question_pages.format.ids import QUESTION_ID, id_problem
from question_pages.format.loading import load_pages
from site_fixture import FIXTURES

SCRIPTS = ROOT / "docs" / "assets" / "javascripts"
FORMAT = SCRIPTS / "progress-format.js"


def test_the_browser_uses_the_same_rule() -> None:
    found = re.search(r"^export const ID = /(.+)/;$", FORMAT.read_text(encoding="utf-8"), re.M)
    assert found, "progress-format.js no longer declares `export const ID = /.../;`"
    assert found.group(1).replace("\\/", "/") == QUESTION_ID.pattern
    # One rule and one storage version for every script: the others import them, none has a copy.
    for script in SCRIPTS.glob("*.js"):
        if script != FORMAT:
            text = script.read_text(encoding="utf-8")
            assert "VERSION =" not in text and "-]+)*$/" not in text, script.name


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
