"""MkDocs hooks: the only place the site generator meets the page format and the records.

- on_startup: under `mkdocs serve`, start a live preview (warm snippet workers kept across
  rebuilds) and watch snippets/ without reacting to the records the preview writes itself.
- on_files: re-record changed snippets (preview only), then run every check of the site
  (question_pages.site_checks, the same as scripts/check_pages.py; a problem fails the build with
  file:line errors), and add each topic's notebook (a rendered page) and each question's
  notebook (a download, notebooks/<topic>/<slug>.ipynb).
- on_nav: the topics in learning order (docs/topics.yml), each topic's questions in learning order.
- on_page_markdown: render question pages and expand the markers of the other pages.
- on_post_page: mark each page that search should index (all but those whose front matter says
  `search: exclude`, and notebooks) for Pagefind.
- on_post_build: write questions.json, the practice panel's learning-order list
  (assets/learning-order.json), the files pages' markers need beside them (the question index's
  later rows) and the Anki decks (decks/) into the built site, from the
  pages and snippet statuses the build rendered, copy the pinned npm packages the site ships
  (site_vendor: ts-fsrs, the review scheduler) from node_modules/, then index the built HTML for
  search (site_search.py, Pagefind), so `mkdocs serve` searches the pages it serves.
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path
from urllib.parse import urljoin

from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page as MkPage
from mkdocs.utils import get_relative_url

sys.path.insert(0, str(Path(__file__).resolve().parent))

from site_search import SearchIndexError, index_site, mark_body

from question_pages.catalog import learning_order, order_nav_children, order_nav_sections, titles
from question_pages.decks import DeckError, write_decks
from question_pages.downloads import deck_files
from question_pages.markers import expand, files_beside
from question_pages.model import Page
from question_pages.notebooks import moved_notebooks, write_notebooks
from question_pages.question_index import build_index, write_index, write_learning_list
from question_pages.render import render_page
from question_pages.sharing import description, structured_data
from question_pages.site_checks import check_site
from question_pages.site_urls import Site, SiteUrlError
from question_pages.topics import Topic
from site_vendor import VendorError, copy_shipped
from snippet_engine.discovery import RECORD_SUFFIX
from snippet_engine.preview import LivePreview, PreviewFailure
from snippet_engine.status import StatusBook

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
GENERATED = ROOT / ".cache" / "generated-docs"
_pages: dict[str, Page] = {}
_book: StatusBook | None = None  # the snippet statuses this build's checks read
_topics: list[Topic] = []
_preview: LivePreview | None = None
_failures: dict[str, PreviewFailure] = {}
_beside: dict[str, str] = {}  # site path -> text: files pages' markers need beside them
# mkdocs-jupyter's template loads MathJax (from an empty or CDN URL) and imports Mermaid from a
# CDN when a diagram is present. Our notebooks hold neither, and the site requests no other host.
_NOTEBOOK_EXTERNALS = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r"|<script type=\"module\">(?:(?!</script>).)*?cdnjs\.cloudflare\.com.*?</script>", re.DOTALL)


def on_startup(command: str, dirty: bool) -> None:
    global _preview
    if command == "serve" and _preview is None:
        _preview = LivePreview(ROOT, jobs=1)


def on_shutdown() -> None:
    global _preview
    if _preview is not None:
        _preview.close()
        _preview = None


@event_priority(100)  # before mkdocs-jupyter looks for notebooks
def on_files(files: Files, config: MkDocsConfig) -> Files:
    global _failures, _book
    if _preview is not None:
        _, _failures = _preview.refresh()
    docs_dir = Path(config["docs_dir"])
    redirects = (config.plugins["redirects"].config["redirect_maps"]
                 if "redirects" in config.plugins else {})
    result = check_site(ROOT, docs_dir, sources={f.src_uri for f in files}, redirects=redirects,
                        previewed=set(_failures))
    if result.errors:
        raise PluginError("the site's sources have problems:\n  "
                          + "\n  ".join(str(e) for e in result.errors))
    # Each question's notebook links back to its page by its address on the site.
    site_url = config["site_url"] or ""
    page_files = {p.page_id: files.get_file_from_path(p.page_id + ".md") for p in result.pages}
    page_urls = {page_id: urljoin(site_url, file.url)
                 for page_id, file in page_files.items() if file is not None and site_url}
    for path in write_notebooks(result.pages, ROOT, GENERATED, [t.id for t in result.topics],
                                result.snippets, page_urls, moved_notebooks(redirects)):
        uri = path.relative_to(GENERATED).as_posix()
        if files.get_file_from_path(uri) is None:
            files.append(File(uri, src_dir=str(GENERATED), dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    _pages.clear()
    _beside.clear()
    _pages.update({p.page_id + ".md": p for p in result.pages})
    _topics[:] = result.topics
    _book = result.snippets
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    order = [p.page_id + ".md" for p in learning_order(list(_pages.values()))]
    nav.items = order_nav_sections(nav.items, [t.id for t in _topics],
                                   {t.id: t.title for t in _topics})
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
        return render_page(question, ROOT, titles(list(_pages.values())), _book, _failures)

    def href(page_id: str) -> str:
        target = files.get_file_from_path(page_id + ".md")
        assert target is not None, f"{page_id}.md is checked to exist by check_site"
        return get_relative_url(target.url, page.file.url)

    def file_href(path: str) -> str:
        return get_relative_url(path, page.file.url)

    beside = files_beside(markdown, pages=list(_pages.values()), topics=_topics, href=href)
    folder = posixpath.dirname(page.file.dest_uri)
    for name, text in beside.items():
        _beside[posixpath.join(folder, name)] = text
    return expand(markdown, from_uri=page.file.src_uri, root=ROOT, pages=list(_pages.values()),
                  topics=_topics, href=href, file_href=file_href)


def on_page_content(html: str, page: MkPage, config: MkDocsConfig, files: Files) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        # A topic's notebook repeats its pages' snippets and outputs: search finds the pages.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return html


def on_post_page(output: str, page: MkPage, config: MkDocsConfig) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        return _NOTEBOOK_EXTERNALS.sub("", output)
    if not (page.meta.get("search") or {}).get("exclude"):
        try:
            return mark_body(output)
        except SearchIndexError as exc:
            raise PluginError(f"{page.file.src_uri}: {exc}") from None
    return output


def on_post_build(config: MkDocsConfig) -> None:
    """questions.json, the decks and the practice panel's learning-order list are data, not pages:
    written straight into the built site, from the pages and snippet statuses this build checked
    and rendered."""
    pages = list(_pages.values())
    site_dir = Path(config["site_dir"])
    try:
        site = Site.make(config["site_name"], config["site_url"], config["use_directory_urls"])
        write_decks(site_dir, pages, _topics, site)
        copy_shipped(ROOT, site_dir)
    except (SiteUrlError, DeckError, VendorError) as exc:
        raise PluginError(str(exc)) from None
    for path, text in _beside.items():
        (site_dir / path).write_text(text, encoding="utf-8")
    index = build_index(pages, _topics, site, ROOT, _book, deck_files(t.id for t in _topics))
    write_index(site_dir, index)
    write_learning_list(site_dir, index)
    try:
        index_site(site_dir)
    except SearchIndexError as exc:
        raise PluginError(str(exc)) from None


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: object) -> LiveReloadServer:
    """Watch snippets/ for edits, but not for the records the preview itself writes: a rebuild
    for those would make the reloaded page wait for a second, pointless build."""
    watched = [w for w in config.watch if Path(w).resolve() == SNIPPETS.resolve()]
    for entry in watched:
        config.watch.remove(entry)
    import watchdog.events

    def changed(event: watchdog.events.FileSystemEvent) -> None:
        path = str(event.src_path)
        name = Path(path).name
        if event.is_directory or "__pycache__" in path or name.startswith("."):
            return
        if name.endswith(RECORD_SUFFIX) and _preview is not None:
            return
        # What LiveReloadServer.watch's own callback does (mkdocs 1.6.1, the last 1.x release).
        with server._rebuild_cond:
            server._want_rebuild = True
            server._rebuild_cond.notify_all()

    handler = watchdog.events.FileSystemEventHandler()
    handler.on_any_event = changed  # type: ignore[method-assign]
    server.observer.schedule(handler, str(SNIPPETS), recursive=True)
    return server
