"""The site's own scripts in a built page: written inline where they must run while the page is
parsed, left off the pages that have nothing for them, and the notebooks' requests to other hosts
taken out."""

from __future__ import annotations

import re
from pathlib import Path

from markupsafe import Markup
from mkdocs.exceptions import PluginError

SCRIPTS_DIR = Path(__file__).resolve().parents[2] / "docs" / "assets" / "javascripts"

_DOC_COMMENT = re.compile(r"/\*\*.*?\*/", re.S)

# Scripts of mkdocs.yml's extra_javascript that act only on what some pages have, each with the mark
# in a built page that it acts on: a page without the mark does not load the script. Every other
# script loads on every page.
PAGE_SCRIPTS = {
    "code-colours.js": "data-tokens=",  # code blocks coloured by question_pages/render/code_colours.py
    "explainer.js": "explainer-fold",  # a question page's folded explainer
    "questions.js": "question-table",  # the question index's table
}

# mkdocs-jupyter's template loads MathJax (from an empty or CDN URL) and imports Mermaid from a
# CDN when a diagram is present. Our notebooks hold neither, and the site requests no other host.
_NOTEBOOK_EXTERNALS = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r"|<script type=\"module\">(?:(?!</script>).)*?cdnjs\.cloudflare\.com.*?</script>", re.DOTALL)


def _without_comments(text: str) -> str:
    """A script without its JSDoc blocks, whole-line comments and indentation: they are for the
    reader of the source and the type check, and would be sent with every page. A line that only
    continues a comment is known by its leading `//`; the scripts inlined here keep `/**` and `//`
    out of their strings (tests/mkdocs_site/test_mkdocs_hooks.py runs the result)."""
    lines = (line.strip() for line in _DOC_COMMENT.sub("", text).splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def inline_script(name: str) -> Markup:
    """A script of docs/assets/javascripts/ for a template to write into the page, for the few that
    must run while the page is parsed (the palette switch: partials/javascripts/palette.html).
    mkdocs.yml's exclude_docs keeps such a script out of the site's files: nothing fetches it."""
    text = _without_comments((SCRIPTS_DIR / name).read_text(encoding="utf-8"))
    if "</script" in text.lower():
        raise PluginError(f"{SCRIPTS_DIR / name} contains '</script', which would end the inline "
                          "<script> early: split the string (\"</\" + \"script\")")
    return Markup(text)


def without_idle_scripts(output: str) -> str:
    """The page without the PAGE_SCRIPTS tags it has nothing for: bytes and a request saved on
    every page that has no code, no explainer or no index table (tests/browser/test_weight.py)."""
    for name, mark in PAGE_SCRIPTS.items():
        if mark not in output:
            output = re.sub(rf'<script src="[^"]*assets/javascripts/{re.escape(name)}"'
                            r' type="module"></script>\n?', "", output)
    return output


def without_notebook_externals(output: str) -> str:
    """A notebook page without mkdocs-jupyter's MathJax and CDN Mermaid loaders."""
    return _NOTEBOOK_EXTERNALS.sub("", output)
