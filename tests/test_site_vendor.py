"""The scheduler the site ships (ts-fsrs) comes from the npm package package.json pins, copied by
the build, and a missing or other version says how to fix it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from helpers import ROOT
from site_vendor import VendorError, copy_shipped, pinned_version


def fake_root(tmp_path: Path, installed: str | None) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(ROOT / "package.json", root / "package.json")
    if installed is not None:
        package = root / "node_modules" / "ts-fsrs"
        shutil.copytree(ROOT / "node_modules" / "ts-fsrs", package)
        manifest = json.loads((package / "package.json").read_text())
        manifest["version"] = installed
        (package / "package.json").write_text(json.dumps(manifest))
    return root


def test_the_build_ships_the_pinned_package_as_installed(tmp_path: Path) -> None:
    want = pinned_version(ROOT, "ts-fsrs")
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/ts-fsrs"]["version"] == want
    root = fake_root(tmp_path, want)
    written = copy_shipped(root, tmp_path / "site")
    assert sorted(p.relative_to(tmp_path / "site").as_posix() for p in written) == [
        "assets/vendor/ts-fsrs/LICENSE", "assets/vendor/ts-fsrs/index.mjs"]
    shipped = tmp_path / "site" / "assets" / "vendor" / "ts-fsrs" / "index.mjs"
    assert shipped.read_bytes() == (ROOT / "node_modules" / "ts-fsrs" / "dist" / "index.mjs").read_bytes()
    # An ES module the browser can import from the site as it is: it exports what scheduling.js
    # uses, and imports nothing (no bare specifier a browser could not resolve).
    text = shipped.read_text()
    assert re.search(r"^export \{[^}]*\bfsrs\b", text, re.M) and not re.search(r"^import ", text, re.M)


@pytest.mark.parametrize(("installed", "message"), [
    (None, "node_modules/ts-fsrs is missing"),
    ("0.0.1", "node_modules/ts-fsrs is 0.0.1, package.json pins"),
])
def test_a_missing_or_other_version_fails_with_the_fix(tmp_path: Path, installed: str | None,
                                                       message: str) -> None:
    with pytest.raises(VendorError) as caught:
        copy_shipped(fake_root(tmp_path, installed), tmp_path / "site")
    assert message in str(caught.value) and "npm ci --omit=dev" in str(caught.value)
