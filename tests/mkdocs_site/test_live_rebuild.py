"""The live preview's template cache (live_rebuild.TemplateBytecodes): a new template environment,
as MkDocs makes for every rebuild, reuses the templates the last one compiled, and an edited
template is compiled again, never served stale."""

from __future__ import annotations

from pathlib import Path

import jinja2

from mkdocs_site.live_rebuild import TemplateBytecodes


class _Counting(jinja2.Environment):
    compiled = 0

    def compile(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        _Counting.compiled += 1
        return super().compile(*args, **kwargs)


def _env(folder: Path, cache: TemplateBytecodes) -> jinja2.Environment:
    return _Counting(loader=jinja2.FileSystemLoader(str(folder)), bytecode_cache=cache)


def test_a_new_environment_reuses_compiled_templates_until_one_changes(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("Hello {{ name }}")
    cache = TemplateBytecodes()
    _Counting.compiled = 0
    assert _env(tmp_path, cache).get_template("page.html").render(name="a") == "Hello a"
    assert _Counting.compiled == 1
    assert _env(tmp_path, cache).get_template("page.html").render(name="b") == "Hello b"
    assert _Counting.compiled == 1, "the second rebuild compiled the template again"
    (tmp_path / "page.html").write_text("Goodbye {{ name }}")
    assert _env(tmp_path, cache).get_template("page.html").render(name="c") == "Goodbye c"
    assert _Counting.compiled == 2
