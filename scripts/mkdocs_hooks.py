"""MkDocs hooks: the only place the site generator meets the page format and the records.

- on_startup: under `mkdocs serve`, start a live preview (warm snippet workers kept across
  rebuilds) and watch snippets/ without reacting to the records the preview writes itself (a
  record changed on disk otherwise, by a git pull say, rebuilds the pages of its snippet).
- on_files: re-record changed snippets (preview only), then run every check of the site
  (question_pages.site_checks, the same as scripts/check_pages.py; a problem fails the build with
  file:line errors), and add each topic's notebook (a rendered page) and each question's
  notebook (a download, notebooks/<topic>/<slug>.ipynb).
- on_nav: the topics in learning order (docs/topics.yml), each topic's questions in learning order.
- on_page_context: a page of a large topic lists only its neighbours in the navigation.
- on_env (serve --dirty only): keep a snippet-only rebuild from writing the tags listing it read.
- on_page_markdown: render question pages and drill pages (with each drill's one-file download
  beside its page), and expand the markers of the other pages.
- on_post_page: mark each page that search should index (all but those whose front matter says
  `search: exclude`, and notebooks) for Pagefind, at the weight its `search: {weight: N}` gives.
- on_post_build: write questions.json, the practice panel's learning-order list
  (assets/learning-order.json), the files pages' markers need beside them (the question index's
  later rows) and the Anki decks (decks/) into the built site, from the
  pages and snippet statuses the build rendered, copy the pinned npm packages the site ships
  (site_vendor: ts-fsrs, the review scheduler) from node_modules/, then index the built HTML for
  search (site_search.py, Pagefind), so `mkdocs serve` searches the pages it serves.

Under `mkdocs serve --dirty` (scripts/dev.sh serve), a rebuild that only snippet sources asked
for (mkdocs_site/live_rebuild.py) redoes only the pages that show a changed snippet: the others are neither
read nor written again (their navigation titles are the last full build's), the site checks run
on those pages only, and the notebook downloads, decks, questions.json and the search index are
rewritten in the background after the reload. Any other change (a page, the config, the page
tooling, a helper module) rebuilds everything, as `mkdocs serve` without --dirty always does.
"""

from __future__ import annotations

import logging
import posixpath
import signal
import sys
import threading
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
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page as MkPage
from mkdocs.utils import get_relative_url
from watchdog.observers.api import BaseObserver

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mkdocs_site.live_rebuild import ChangeLog, Deferred, TemplateBytecodes, newest_change
from mkdocs_site.navigation import bounded_for, order_navigation
from mkdocs_site.page_scripts import inline_script, without_idle_scripts, without_notebook_externals
from mkdocs_site.site_data import (
    copy_notebook_downloads,
    write_decks_and_files,
    write_question_files,
    write_search_index,
)
from mkdocs_site.watch import watch_snippets
from question_pages.drills.bundle import bundle
from question_pages.drills.pages import DrillPage
from question_pages.drills.render import (
    download_name,
    drill_list,
    questions_behind,
    render_drill_page,
)
from question_pages.exports.notebooks import moved_notebooks, write_notebooks
from question_pages.format.markers import snippet_refs
from question_pages.format.model import Page
from question_pages.format.topics import Topic
from question_pages.format.validate import validate_page
from question_pages.render.code_colours import colours_as_ranges
from question_pages.render.expand import ListedDrill, expand, files_beside
from question_pages.render.page import listed_by, render_page
from question_pages.render.sharing import description, structured_data
from question_pages.render.ties import line_ids
from question_pages.site_checks import check_site
from question_pages.sitewide.catalog import titles
from question_pages.sitewide.site_urls import Site, SiteUrlError
from site_search import SearchIndexError, mark_body
from snippet_engine.execution.preview import LivePreview, PreviewFailure
from snippet_engine.records.status import StatusBook
from snippet_engine.source.discovery import RECORD_SUFFIX

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
GENERATED = ROOT / ".cache" / "generated-docs"
_pages: dict[str, Page] = {}
_drills: dict[str, DrillPage] = {}  # src_uri (drills/<id>.md) -> the drill's checked page
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

class _QuietDirty(logging.Filter):
    """MkDocs warns on every dirty build that navigation may be wrong; these hooks rebuild every
    page whenever navigation could change, so the warning would only be noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


def _hung_up(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def on_startup(command: str, dirty: bool) -> None:
    global _preview, _serve_dirty, _deferred
    if command == "serve" and _preview is None:
        _preview = LivePreview(ROOT, jobs=1)
        if threading.current_thread() is threading.main_thread():
            # A closed terminal stops the server as Ctrl-C does (MkDocs then runs on_shutdown,
            # which stops the preview's workers), instead of killing it on the spot.
            signal.signal(signal.SIGHUP, _hung_up)
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
    _drills.clear()
    _drills.update({d.page_id + ".md": d for d in result.drills})
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
    order_navigation(nav, list(_pages.values()), _topics)
    if _serve_dirty:
        _choose_pages(files)
    return nav


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
        return render_page(question, ROOT, titles(list(_pages.values())), _book, _failures,
                           listed_by(_pages.values()).get(question.page_id, []))

    drill = _drills.get(page.file.src_uri)
    if drill is not None:
        assert _book is not None, "on_files checked the site and read the records"
        # The reader's download, written beside the page by on_post_build.
        folder = posixpath.dirname(page.file.dest_uri)
        _beside[posixpath.join(folder, download_name(drill.id))] = bundle(drill.drill, ROOT)
        page.meta["description"] = Markup.escape(f"Coding drill: {drill.title}. Write it, then "
                                                 "judge it on your machine with plain python.")
        return render_drill_page(drill, ROOT, _book, _failures,
                                 questions_behind(drill.id, _pages.values()))

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
                  topics=_topics, href=href, file_href=file_href,
                  drill_list=drill_list(list(_drills.values()), page.file.src_uri),
                  drills=[ListedDrill(d.page_id, d.title, d.level, d.minutes)
                          for d in sorted(_drills.values(), key=lambda d: d.id)])


def on_page_context(context: dict, page: MkPage, config: MkDocsConfig, nav: Navigation) -> dict:
    """A page of a large topic lists only its neighbours in the navigation (`bounded_for`)."""
    context["nav"] = bounded_for(nav, page)
    return context


def on_page_content(html: str, page: MkPage, config: MkDocsConfig, files: Files) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        # A topic's notebook repeats its pages' snippets and outputs: search finds the pages.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        return html
    # Token spans become highlight ranges (question_pages/render/code_colours.py: the spans were most of
    # a question page's elements and of its blocking time on a phone).
    # Each line a tie points at gets its id (question_pages/render/ties.py), for its mark's link.
    return line_ids(colours_as_ranges(html))


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    """The theme's own pages (404.html, sitemap.xml) get the same script pruning as the others."""
    return without_idle_scripts(output_content) if template_name.endswith(".html") else output_content


def on_post_page(output: str, page: MkPage, config: MkDocsConfig) -> str:
    if _serve_dirty:
        _rendered[page.file.src_uri] = (dict(page.meta), page.title)
    output = without_idle_scripts(output)
    if page.file.src_uri.endswith(".ipynb"):
        return without_notebook_externals(output)
    search = page.meta.get("search") or {}
    if not search.get("exclude"):
        try:
            return mark_body(output, search.get("weight"))
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
    topics, book, beside, drills = list(_topics), _book, dict(_beside), list(_drills.values())

    def decks() -> None:
        write_decks_and_files(ROOT, site_dir, pages, topics, site, beside, drills)

    def questions() -> None:
        write_question_files(ROOT, site_dir, pages, topics, site, book, drills)

    def search() -> None:
        write_search_index(site_dir)

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
        copy_notebook_downloads(ROOT, GENERATED, site_dir, pages, topic_ids, book, page_urls, moved)

    _deferred.submit([("the notebooks", notebooks), ("the decks", decks),
                      ("questions.json", questions), ("the search index", search)])


def _record_is_ours(record: Path) -> bool:
    """Whether a record file's change is the live preview's own (no rebuild for it), not a
    change made on disk while its snippet stayed as it was (a git pull, the CUDA records)."""
    preview = _preview
    return preview is not None and not preview.changed_outside(record)


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: object) -> LiveReloadServer:
    """Watch snippets/ for edits, but not for the records the preview itself writes: a rebuild
    for those would make the reloaded page wait for a second, pointless build. A record changed
    by anything else (a git pull, the CUDA records' pull request) rebuilds its snippet's pages."""
    watched = [w for w in config.watch if Path(w).resolve() == SNIPPETS.resolve()]
    for entry in watched:
        config.watch.remove(entry)
    global _snippet_observer
    _snippet_observer = watch_snippets(server, SNIPPETS, ROOT, RECORD_SUFFIX,
                                       record_is_ours=_record_is_ours, saved=_changes.add)
    return server
