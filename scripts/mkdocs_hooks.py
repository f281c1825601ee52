"""MkDocs hooks: the only place the site generator meets the page format and the records.

- on_startup: under `mkdocs serve`, start a live preview (warm snippet workers kept across
  rebuilds) and watch snippets/ without reacting to the records the preview writes itself.
- on_files: re-record changed snippets (preview only), then run every check of the site
  (question_pages.site_checks, the same as scripts/check_pages.py; a problem fails the build with
  file:line errors), and add each topic's notebook (a rendered page) and each question's
  notebook (a download, notebooks/<topic>/<slug>.ipynb).
- on_nav: the topics in learning order (docs/topics.yml), each topic's questions in learning order.
- on_env (serve --dirty only): keep a snippet-only rebuild from writing the tags listing it read.
- on_page_markdown: render question pages and expand the markers of the other pages.
- on_post_page: mark each page that search should index (all but those whose front matter says
  `search: exclude`, and notebooks) for Pagefind.
- on_post_build: write questions.json, the practice panel's learning-order list
  (assets/learning-order.json), the files pages' markers need beside them (the question index's
  later rows) and the Anki decks (decks/) into the built site, from the
  pages and snippet statuses the build rendered, copy the pinned npm packages the site ships
  (site_vendor: ts-fsrs, the review scheduler) from node_modules/, then index the built HTML for
  search (site_search.py, Pagefind), so `mkdocs serve` searches the pages it serves.

Under `mkdocs serve --dirty` (scripts/dev.sh serve), a rebuild that only snippet sources asked
for (live_rebuild.py) redoes only the pages that show a changed snippet: the others are neither
read nor written again (their navigation titles are the last full build's), the site checks run
on those pages only, and the notebook downloads, decks, questions.json and the search index are
rewritten in the background after the reload. Any other change (a page, the config, the page
tooling, a helper module) rebuilds everything, as `mkdocs serve` without --dirty always does.
"""

from __future__ import annotations

import logging
import posixpath
import re
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import urljoin

import jinja2
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page as MkPage
from mkdocs.utils import get_relative_url
from watchdog.observers.api import BaseObserver

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_rebuild import ChangeLog, Deferred, TemplateBytecodes, newest_change
from site_search import SearchIndexError, index_site, mark_body

from question_pages.catalog import learning_order, order_nav_children, order_nav_sections, titles
from question_pages.code_colours import colours_as_ranges
from question_pages.decks import DeckError, write_decks
from question_pages.downloads import deck_files
from question_pages.markers import expand, files_beside, snippet_refs
from question_pages.model import Page
from question_pages.notebooks import moved_notebooks, write_notebooks
from question_pages.question_index import build_index, write_index, write_learning_list
from question_pages.render import render_page
from question_pages.sharing import description, structured_data
from question_pages.site_checks import check_site
from question_pages.site_urls import Site, SiteUrlError
from question_pages.topics import Topic
from question_pages.validate import validate_page
from site_vendor import VendorError, copy_shipped
from snippet_engine.discovery import RECORD_SUFFIX
from snippet_engine.preview import LivePreview, PreviewFailure
from snippet_engine.status import StatusBook

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
GENERATED = ROOT / ".cache" / "generated-docs"
SCRIPTS_DIR = ROOT / "docs" / "assets" / "javascripts"  # the site's own scripts
TOPICS_SECTION = "Topics"  # the navigation's one entry for every topic
_pages: dict[str, Page] = {}
_book: StatusBook | None = None  # the snippet statuses this build's checks read
_topics: list[Topic] = []
_preview: LivePreview | None = None
_failures: dict[str, PreviewFailure] = {}
_beside: dict[str, str] = {}  # site path -> text: files pages' markers need beside them
# Serve --dirty only: what a rebuild for snippet saves alone needs from the last full build.
_serve_dirty = False
_changes = ChangeLog()  # snippet files the watcher saw change since the last rebuild
_deferred: Deferred | None = None
_template_bytecodes = TemplateBytecodes()  # Material's compiled templates, across rebuilds
_snippet_observer: BaseObserver | None = None  # watches snippets/ under serve
# What an editor's save is, to a file watcher: a write, a new file, a rename onto it, a removal.
_SAVE_EVENTS = frozenset({"created", "modified", "moved", "deleted", "closed"})
_full_started_ns: int | None = None  # when the last full build that succeeded began
_full_pending_ns = 0  # when the full build under way began (kept once it succeeds)
_shown: dict[str, set[str]] = {}  # snippets/<topic>/<name>.py -> src_uris of the pages showing it
_generated: list[str] = []  # uris of the notebooks the last full build wrote under GENERATED
_page_urls: dict[str, str] = {}
_redirects: dict[str, str] = {}
_rendered: dict[str, tuple[dict, str | None]] = {}  # src_uri -> (meta, title) last rendered
_only: set[str] | None = None  # this build's pages to rebuild; None: every page
# Pages holding a tags listing: read again by a snippet-only rebuild (a question's tags link to
# the listing only when the tags plugin has read it in the same build) but not written again.
_listings: set[str] = set()
TAGS_LISTING = "<!-- material/tags"
# mkdocs-jupyter's template loads MathJax (from an empty or CDN URL) and imports Mermaid from a
# CDN when a diagram is present. Our notebooks hold neither, and the site requests no other host.
_NOTEBOOK_EXTERNALS = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r"|<script type=\"module\">(?:(?!</script>).)*?cdnjs\.cloudflare\.com.*?</script>", re.DOTALL)


class _QuietDirty(logging.Filter):
    """MkDocs warns on every dirty build that navigation may be wrong; these hooks rebuild every
    page whenever navigation could change, so the warning would only be noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


def on_startup(command: str, dirty: bool) -> None:
    global _preview, _serve_dirty, _deferred
    if command == "serve" and _preview is None:
        _preview = LivePreview(ROOT, jobs=1)
    if command == "serve" and dirty:
        _serve_dirty = True
        _deferred = Deferred()
        logging.getLogger("mkdocs.commands.build").addFilter(_QuietDirty())


def on_shutdown() -> None:
    """The preview's workers first (they run in sessions of their own: a server killed before
    it stopped them would leave them behind), then the background work and the file watcher."""
    global _preview, _deferred, _snippet_observer
    if _preview is not None:
        _preview.close()
        _preview = None
    if _deferred is not None:
        _deferred.close()
        _deferred = None
    if _snippet_observer is not None:
        _snippet_observer.stop()  # a daemon thread: not joined, so it cannot hold the exit up
        _snippet_observer = None


def _watched_besides_snippets(config: MkDocsConfig) -> list[Path]:
    paths = [Path(config["docs_dir"])]
    if config.config_file_path:
        paths.append(Path(config.config_file_path))
    paths += [Path(w) for w in config.watch if Path(w).resolve() != SNIPPETS.resolve()]
    return paths


def _snippets_only(config: MkDocsConfig, changed: set[str]) -> bool:
    """Whether this rebuild may redo only the pages of the changed snippets: a full build was
    made, only snippets that pages show changed, and nothing else watched changed since."""
    return (_serve_dirty and _full_started_ns is not None and bool(changed)
            and all(rel in _shown and (ROOT / rel).is_file() for rel in changed)
            # less a margin for the coarse clock file times are taken from
            and newest_change(_watched_besides_snippets(config)) < _full_started_ns - 100_000_000)


def _rebuild_snippet_pages(files: Files, config: MkDocsConfig, changed: set[str]) -> bool:
    """The snippet-only rebuild's part of on_files: re-record, then check and mark the pages that
    show a changed snippet. False (nothing kept) when a check fails: the full path reports it."""
    global _failures, _book, _only
    assert _preview is not None
    ran, failures = _preview.refresh(only=changed)
    changed = (changed | {o.path for o in ran} | (set(failures) ^ set(_failures))
               | {rel for rel, f in failures.items() if _failures.get(rel) != f})
    only = {uri for rel in changed for uri in _shown.get(rel, ())}
    book = StatusBook(ROOT)
    page_ids = {p.page_id for p in _pages.values()}
    for uri in only:
        if validate_page(_pages[uri], ROOT, page_ids, book, set(failures)):
            _failures = failures
            return False
    _failures, _book, _only = failures, book, only
    for uri in _generated:
        if files.get_file_from_path(uri) is None:
            files.append(File(uri, src_dir=str(GENERATED), dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    return True


@event_priority(100)  # before mkdocs-jupyter looks for notebooks
def on_files(files: Files, config: MkDocsConfig) -> Files:
    global _failures, _book, _only, _full_pending_ns
    changed = _changes.take()
    if _snippets_only(config, changed):
        if _deferred is not None:
            _deferred.cancel(wait=False)  # this rebuild defers the same work again
        if _rebuild_snippet_pages(files, config, changed):
            return files
    if _deferred is not None:
        _deferred.cancel(wait=True)
    _only = None
    _full_pending_ns = time.time_ns()
    _listings.clear()
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
    _generated[:] = []
    for path in write_notebooks(result.pages, ROOT, GENERATED, [t.id for t in result.topics],
                                result.snippets, page_urls, moved_notebooks(redirects)):
        uri = path.relative_to(GENERATED).as_posix()
        _generated.append(uri)
        if files.get_file_from_path(uri) is None:
            files.append(File(uri, src_dir=str(GENERATED), dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    _pages.clear()
    _beside.clear()
    _pages.update({p.page_id + ".md": p for p in result.pages})
    _topics[:] = result.topics
    _book = result.snippets
    _page_urls.clear()
    _page_urls.update(page_urls)
    _redirects.clear()
    _redirects.update(redirects)
    _shown.clear()
    for uri, page in _pages.items():
        for _, ref, _ in snippet_refs(page):
            _shown.setdefault(f"snippets/{ref}", set()).add(uri)
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    order = [p.page_id + ".md" for p in learning_order(list(_pages.values()))]
    nav.items = order_nav_sections(nav.items, [t.id for t in _topics],
                                   {t.id: t.title for t in _topics})
    for item in nav.items:
        if getattr(item, "children", None):
            item.children = order_nav_children(item.children, order)
    nav.items = _under_one_section(nav.items, {t.title for t in _topics}, TOPICS_SECTION)
    if _serve_dirty:
        _choose_pages(files)
    return nav


def _under_one_section(items: list, titles: set[str], title: str) -> list:
    """The topics' sections as the children of one section, where the first of them was. With
    navigation.prune a page that is not in a topic shows that one section, collapsed, in place of
    an entry per topic, so the index and the other pages do not grow with the number of topics
    (tests/browser/test_weight.py); a question page shows the topics, and its own topic's
    questions, under it."""
    grouped = [item for item in items if item.is_section and item.title in titles]
    if not grouped:
        return items
    section = Section(title, grouped)
    for child in grouped:
        child.parent = section
    at = items.index(grouped[0])
    rest = [item for item in items if item not in grouped]
    return [*rest[:at], section, *rest[at:]]


def _yes() -> bool:
    return True


def _no() -> bool:
    return False


def _choose_pages(files: Files) -> None:
    """Under serve --dirty, which pages MkDocs reads and writes: every one (a full rebuild, as
    without --dirty), or those of the changed snippets. A page left alone gets the meta and
    title of its last rendering, so the rebuilt pages' navigation shows the same titles."""
    for file in files.documentation_pages():
        rebuild = _only is None or file.src_uri in _only or file.src_uri in _listings
        file.is_modified = _yes if rebuild else _no  # type: ignore[method-assign]
        if not rebuild and file.page is not None and file.src_uri in _rendered:
            meta, title = _rendered[file.src_uri]
            file.page.markdown = ""
            file.page.meta = {**meta, "title": title} if title is not None else dict(meta)


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> None:
    """Between reading the pages and writing them. Under serve, the compiled templates of the
    last rebuild are reused. A snippet-only rebuild read the tags listings for the tags plugin,
    but does not write them (they would list only the pages it read), nor the theme's own pages
    (404.html, sitemap.xml), which no snippet changes."""
    if _serve_dirty:
        env.bytecode_cache = _template_bytecodes
    env.globals["inline_script"] = inline_script
    if _serve_dirty and _only is not None:
        config.theme.static_templates.clear()
        for file in files.documentation_pages():
            if file.src_uri in _listings and file.src_uri not in _only:
                file.is_modified = _no  # type: ignore[method-assign]


_DOC_COMMENT = re.compile(r"/\*\*.*?\*/", re.S)


def _without_comments(text: str) -> str:
    """A script without its JSDoc blocks, whole-line comments and indentation: they are for the
    reader of the source and the type check, and would be sent with every page. A line that only
    continues a comment is known by its leading `//`; the scripts inlined here keep `/**` and `//`
    out of their strings (tests/test_mkdocs_hooks.py runs the result)."""
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


def on_page_markdown(markdown: str, page: MkPage, config: MkDocsConfig, files: Files) -> str:
    if _serve_dirty and _only is None and TAGS_LISTING in markdown:
        _listings.add(page.file.src_uri)
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
    # Token spans become highlight ranges (question_pages/code_colours.py: the spans were most of
    # a question page's elements and of its blocking time on a phone).
    return colours_as_ranges(html)


# Scripts of mkdocs.yml's extra_javascript that act only on what some pages have, each with the mark
# in a built page that it acts on: a page without the mark does not load the script. Every other
# script loads on every page.
PAGE_SCRIPTS = {
    "code-colours.js": "data-tokens=",           # code blocks coloured by question_pages/code_colours.py
    "explainer.js": "explainer-fold",            # a question page's folded explainer
    "questions.js": "question-table",            # the question index's table
}


def without_idle_scripts(output: str) -> str:
    """The page without the PAGE_SCRIPTS tags it has nothing for: bytes and a request saved on
    every page that has no code, no explainer or no index table (tests/browser/test_weight.py)."""
    for name, mark in PAGE_SCRIPTS.items():
        if mark not in output:
            output = re.sub(rf'<script src="[^"]*assets/javascripts/{re.escape(name)}"'
                            r' type="module"></script>\n?', "", output)
    return output


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    """The theme's own pages (404.html, sitemap.xml) get the same script pruning as the others."""
    return without_idle_scripts(output_content) if template_name.endswith(".html") else output_content


def on_post_page(output: str, page: MkPage, config: MkDocsConfig) -> str:
    if _serve_dirty:
        _rendered[page.file.src_uri] = (dict(page.meta), page.title)
    output = without_idle_scripts(output)
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
    except SiteUrlError as exc:
        raise PluginError(str(exc)) from None
    topics, book, beside = list(_topics), _book, dict(_beside)

    def decks() -> None:
        try:
            write_decks(site_dir, pages, topics, site)
            copy_shipped(ROOT, site_dir)
        except (DeckError, VendorError) as exc:
            raise PluginError(str(exc)) from None
        for path, text in beside.items():
            (site_dir / path).write_text(text, encoding="utf-8")

    def questions() -> None:
        index = build_index(pages, topics, site, ROOT, book, deck_files(t.id for t in topics))
        write_index(site_dir, index)
        write_learning_list(site_dir, index)

    def search() -> None:
        try:
            index_site(site_dir)
        except SearchIndexError as exc:
            raise PluginError(str(exc)) from None

    if _only is None or _deferred is None:
        decks()
        questions()
        search()
        # Only a build that got this far may stand for the sources: after a failed one (a page
        # with an error, say), a snippet save rebuilds everything again and shows the error.
        global _full_started_ns
        _full_started_ns = _full_pending_ns
        return
    # A rebuild for snippet saves: all of this describes the whole site, not the page reloaded.
    moved = moved_notebooks(_redirects)
    page_urls = dict(_page_urls)
    topic_ids = [t.id for t in topics]

    def notebooks() -> None:
        for path in write_notebooks(pages, ROOT, GENERATED, topic_ids, book, page_urls, moved):
            uri = path.relative_to(GENERATED).as_posix()
            dest = site_dir / uri
            if uri.count("/") > 1 and (not dest.exists() or dest.read_bytes() != path.read_bytes()):
                shutil.copyfile(path, dest)  # a download; a topic's notebook page waits for a full rebuild

    _deferred.submit([("the notebooks", notebooks), ("the decks", decks),
                      ("questions.json", questions), ("the search index", search)])


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: object) -> LiveReloadServer:
    """Watch snippets/ for edits, but not for the records the preview itself writes: a rebuild
    for those would make the reloaded page wait for a second, pointless build."""
    watched = [w for w in config.watch if Path(w).resolve() == SNIPPETS.resolve()]
    for entry in watched:
        config.watch.remove(entry)
    import watchdog.events

    def changed(event: watchdog.events.FileSystemEvent) -> None:
        path = str(getattr(event, "dest_path", "") or event.src_path)
        name = Path(path).name
        # Native observers also report files opened and closed unchanged: the build reading a
        # snippet must not look like a save (it would rebuild again after every rebuild).
        if event.event_type not in _SAVE_EVENTS:
            return
        if event.is_directory or "__pycache__" in path or name.startswith("."):
            return
        if name.endswith(RECORD_SUFFIX) and _preview is not None:
            return
        try:
            _changes.add(Path(path).resolve().relative_to(ROOT).as_posix())
        except ValueError:
            _changes.add(path)
        # What LiveReloadServer.watch's own callback does (mkdocs 1.6.1, the last 1.x release).
        with server._rebuild_cond:
            server._want_rebuild = True
            server._rebuild_cond.notify_all()

    handler = watchdog.events.FileSystemEventHandler()
    handler.on_any_event = changed  # type: ignore[method-assign]
    # The operating system's own notices (inotify on Linux), not MkDocs' polling every half
    # second: a save is seen at once. Where watchdog has no native observer it polls as MkDocs does.
    global _snippet_observer
    import watchdog.observers
    _snippet_observer = watchdog.observers.Observer()
    _snippet_observer.schedule(handler, str(SNIPPETS), recursive=True)
    _snippet_observer.daemon = True
    _snippet_observer.start()
    return server
