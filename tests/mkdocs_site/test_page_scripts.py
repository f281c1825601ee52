"""The hooks' helpers that templates call: a script written inline into every page."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from mkdocs_site import page_scripts
from mkdocs_site.page_scripts import SCRIPTS_DIR, inline_script


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
    monkeypatch.setattr(page_scripts, "SCRIPTS_DIR", tmp_path)
    with pytest.raises(PluginError, match=r"bad\.js contains '</script'.*split the string"):
        inline_script("bad.js")


# What each page-specific script looks for in the page, as its source spells it.
_LOOKS_FOR = {"code-colours.js": "[data-tokens]", "explainer.js": "details.explainer-fold",
              "questions.js": ".question-table"}


def test_a_page_loads_a_page_specific_script_exactly_when_it_has_what_the_script_acts_on(
        real_site: Path) -> None:
    """The built site: a page without code, explainer or index table does not load the script for
    it, a page with one does, and each mark is what the script itself looks for."""
    assert set(_LOOKS_FOR) == set(page_scripts.PAGE_SCRIPTS)
    for name, selector in _LOOKS_FOR.items():
        assert selector in (SCRIPTS_DIR / name).read_text(encoding="utf-8"), (name, selector)
    loads: dict[str, set[str]] = {name: set() for name in _LOOKS_FOR}
    for path in real_site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        if "assets/javascripts/bundle." not in html:
            continue  # a redirect stub or a fragment, not a page
        rel = path.relative_to(real_site).as_posix()
        for name in _LOOKS_FOR:
            has = page_scripts.PAGE_SCRIPTS[name] in html
            loaded = f'assets/javascripts/{name}" type="module"></script>' in html
            assert has == loaded, f"{rel}: has what {name} acts on: {has}; loads it: {loaded}"
            if loaded:
                loads[name].add(rel)
    assert "questions/index.html" in loads["questions.js"] and len(loads["questions.js"]) == 1
    question = "core/mixed-precision/index.html"
    assert question in loads["code-colours.js"] and question in loads["explainer.js"]
    assert "index.html" not in loads["code-colours.js"] | loads["explainer.js"]
