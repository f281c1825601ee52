"""MkDocs hooks: the only place the site generator meets the page format and the records.

- on_files: check every question page (a broken page fails the build with file:line errors),
  check that no published URL vanished without a redirect, and add each topic's notebook.
- on_page_markdown: render question pages, the question table and the topic learning paths.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkPage
from mkdocs.utils import get_relative_url

sys.path.insert(0, str(Path(__file__).resolve().parent))

from question_pages.catalog import learning_order, learning_path, order_nav_children, question_table, titles
from question_pages.model import Page
from question_pages.notebooks import write_notebooks
from question_pages.published import missing_redirects
from question_pages.render import render_page
from question_pages.sharing import description, structured_data
from question_pages.validate import load_pages

log = logging.getLogger("mkdocs.hooks.question_pages")
ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / ".cache" / "generated-docs"
_pages: dict[str, Page] = {}
# mkdocs-jupyter's template loads MathJax (from an empty or CDN URL) and imports Mermaid from a
# CDN when a diagram is present. Our notebooks hold neither, and the site requests no other host.
_NOTEBOOK_EXTERNALS = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r"|<script type=\"module\">(?:(?!</script>).)*?cdnjs\.cloudflare\.com.*?</script>", re.DOTALL)
MARKER = re.compile(
    r"^\{\{\s*(question_table|learning_path\(\s*\"(\w[\w-]*)\"\s*\)"
    r"|include_file\(\s*\"([\w./-]+)\"\s*\))\s*\}\}\s*$", re.MULTILINE)


@event_priority(100)  # before mkdocs-jupyter looks for notebooks
def on_files(files: Files, config: MkDocsConfig) -> Files:
    pages, errors = load_pages(ROOT)
    if not errors:
        for path in write_notebooks(pages, ROOT, GENERATED):
            uri = path.relative_to(GENERATED).as_posix()
            if files.get_file_from_path(uri) is None:
                files.append(File(uri, src_dir=str(GENERATED), dest_dir=config["site_dir"],
                                  use_directory_urls=config["use_directory_urls"]))
    redirects = (config.plugins["redirects"].config["redirect_maps"]
                 if "redirects" in config.plugins else {})
    problems = [str(e) for e in errors]
    problems += missing_redirects(ROOT, {f.src_uri for f in files}, redirects)
    if problems:
        raise PluginError("question pages break the format:\n  " + "\n  ".join(problems))
    _pages.clear()
    _pages.update({p.page_id + ".md": p for p in pages})
    return files


def on_nav(nav, config: MkDocsConfig, files: Files):
    order = [p.page_id + ".md" for p in learning_order(list(_pages.values()))]
    for item in nav.items:
        if getattr(item, "children", None):
            item.children = order_nav_children(item.children, order)
    return nav


def on_page_markdown(markdown: str, page: MkPage, config: MkDocsConfig, files: Files) -> str:
    question = _pages.get(page.file.src_uri)
    if question is not None:
        # Escaped once here: Material writes the meta description without escaping, and a quote
        # in it (package_path="model.pt2") would end the attribute. Markup stays as it is under
        # the `| e` of docs/overrides/main.html.
        page.meta["description"] = Markup.escape(description(question))
        page.meta["json_ld"] = structured_data(question, page.canonical_url)
        return render_page(question, ROOT, titles(list(_pages.values())))
    from_id = page.file.src_uri.removesuffix(".md")

    def expand(match: re.Match) -> str:
        if match.group(1) == "question_table":
            def href(page_id: str) -> str:
                target = files.get_file_from_path(page_id + ".md")
                return get_relative_url(target.url, page.file.url)

            return question_table(list(_pages.values()), href)
        if match.group(3):  # a repository file shown on the site, such as CONTRIBUTING.md
            return (ROOT / match.group(3)).read_text(encoding="utf-8")
        return learning_path(list(_pages.values()), match.group(2), from_id)

    return MARKER.sub(expand, markdown)


def on_post_page(output: str, page: MkPage, config: MkDocsConfig) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        return _NOTEBOOK_EXTERNALS.sub("", output)
    return output
