"""The hooks' helpers that templates call: a script written inline into every page."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import mkdocs_hooks
import pytest
from mkdocs.exceptions import PluginError
from mkdocs_hooks import SCRIPTS_DIR, inline_script


def test_an_inlined_script_loses_its_comments_and_still_does_what_the_source_does(tmp_path: Path) -> None:
    """palette.js as the pages get it: no JSDoc or comment lines (they were most of its bytes), and
    node gets the same answers from it as from the source."""
    source = (SCRIPTS_DIR / "palette.js").read_text(encoding="utf-8")
    inlined = str(inline_script("palette.js"))
    assert "/**" not in inlined and not any(line.startswith("//") for line in inlined.splitlines())
    assert len(inlined) < len(source) / 2, (len(inlined), len(source))
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (scripts/dev.sh test installs it)")
    (tmp_path / "inlined.js").write_text(inlined, encoding="utf-8")
    probe = """
      const dark = m => m === "(prefers-color-scheme: dark)";
      const L = {media: "(prefers-color-scheme: light)", scheme: "default", primary: "indigo",
                 accent: "indigo"};
      const D = {media: "(prefers-color-scheme: dark)", scheme: "slate", primary: "indigo",
                 accent: "indigo"};
      const answers = p => [p.choose([L, D], null, dark), p.choose([L, D], {index: 0, color: L}, dark),
                            p.next(1, 2)];
      console.log(JSON.stringify([answers(require(process.argv[1])), answers(require(process.argv[2]))]));
    """
    done = subprocess.run([node, "-e", probe, str(tmp_path / "inlined.js"), str(SCRIPTS_DIR / "palette.js")],
                          capture_output=True, text=True, check=True, timeout=60)
    inlined_answers, source_answers = json.loads(done.stdout)
    assert inlined_answers == source_answers == [1, 0, 0]


def test_a_script_that_would_end_its_script_element_is_refused(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.js").write_text('var s = "</script>";\n', encoding="utf-8")
    monkeypatch.setattr(mkdocs_hooks, "SCRIPTS_DIR", tmp_path)
    with pytest.raises(PluginError, match=r"bad\.js contains '</script'.*split the string"):
        inline_script("bad.js")
