"""The site's search index: Pagefind run over the built HTML, whatever generator wrote it.

Material's own search made every first visit download the whole index (200 kB gzipped with 48
questions, about 3 kB more per question) for a search most readers never use. Pagefind splits the
index into small chunks that the browser fetches only for the words of a query, and its code is
loaded only when the reader opens the search box (docs/assets/javascripts/search.js).

What is indexed is decided in the HTML, so this step needs nothing from MkDocs:
- a page is indexed only if its article carries `data-pagefind-body` (`mark_body`, which the
  MkDocs hooks call for every page not marked `search: exclude` in its front matter): progress
  pages, tags, notebooks and the 404 page are not; a page about the site rather than PyTorch
  (Contributing) is indexed at a low weight (`search: {weight: 0.2}`);
- inside it, what the page format marks `data-search-exclude` (code and outputs, the "On this
  page" strip, sources, related questions, the index's filters, progress tools) and the page
  furniture in EXCLUDE_SELECTORS are left out (a topic page's list of its questions too);
- two things a reader does not see are indexed, from attributes of empty hidden elements: a
  question page's `search_aliases` (also the `aliases` metadata field that search.js weighs
  above a title; render/page.py) and the PyTorch names each snippet's code uses, as readers type
  them (render/search_names.py).

Run after a build: `python scripts/site_search.py SITE_DIR` (the hooks' post-build step does).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

from pagefind_bin import get_executable  # type: ignore[import-untyped]

BUNDLE = "pagefind"  # the folder of the built site that holds the index and Pagefind's code
ARTICLE = '<article class="md-content__inner md-typeset">'
EXCLUDE_SELECTORS = [
    "[data-search-exclude]",   # marked by the page format: code, outputs, sources, controls
    ".question-meta",          # level, importance, frequency and topic chips
    ".practice-slot",          # "Your progress" and the practice button
    ".speaking-time",          # "Spoken: ~20 s (...)" under each answer
    ".explainer-all",          # "Open every section of the explainer"
    ".explainer-fold > summary",  # "Read this section (N words)"
    ".headerlink",             # the permalink "¶" after each heading
    ".md-content__button",     # notebook download icon
]
# The parts of Pagefind's output that search.js uses: the search API, its WebAssembly, and the
# index itself. Its ready-made interfaces (pagefind-ui, modular and component UI) are removed:
# the site's search box is Material's own, driven by search.js.
KEEP = ("pagefind.js", "pagefind-worker.js", "pagefind-entry.json", "wasm.", "pagefind.",
        "index", "fragment", "filter")


class SearchIndexError(RuntimeError):
    """Pagefind failed or indexed nothing: the site would have a search box that finds nothing."""


def mark_body(html: str, weight: float | None = None) -> str:
    """The page with its article marked as what Pagefind indexes (a page with no mark is left
    out of the index). `html` must be a page of Material's theme. `weight` (0 to 10; a page's
    `search: {weight: ...}` front matter): how much every word of the page counts, its title and
    headings included, against 1 for an answer's prose; a page about the site, not about PyTorch
    (Contributing), is given less, so that it never outranks an answer for the words it shares
    with one ("CUDA out of memory") yet is still found by its own."""
    if ARTICLE not in html:
        raise SearchIndexError(f"no {ARTICLE} in the page: the theme changed, update site_search.py")
    mark = " data-pagefind-body"
    if weight is not None:
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= 10:
            raise SearchIndexError(f"search weight {weight!r} is not a number above 0 and at most 10")
        mark += f' data-pagefind-weight="{weight}"'
    return html.replace(ARTICLE, ARTICLE.removesuffix(">") + mark + ">", 1)


def index_site(site_dir: Path) -> int:
    """Write the Pagefind index and code into `site_dir`/pagefind/; returns the pages indexed."""
    bundle = site_dir / BUNDLE
    if bundle.exists():
        shutil.rmtree(bundle)  # a page removed since the last build must not stay findable
    done = subprocess.run(
        [str(get_executable()), "--site", str(site_dir), "--output-subdir", BUNDLE,
         "--exclude-selectors", ", ".join(EXCLUDE_SELECTORS), "--force-language", "en"],
        capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise SearchIndexError(f"pagefind failed on {site_dir} ({done.returncode}):\n"
                               f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    pages = _indexed_pages(done.stdout)
    if pages == 0:
        raise SearchIndexError(f"pagefind indexed no page of {site_dir}: is any page marked "
                               f"data-pagefind-body?\n{done.stdout[-2000:]}")
    for entry in bundle.iterdir():
        if not entry.name.startswith(KEEP):
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    return pages


def indexed(site_dir: Path) -> dict[str, dict]:
    """What the index holds, page by page: {url: {"content", "meta", "anchors", ...}}, read from
    Pagefind's fragments (gzipped JSON after a signature), for tests and for checking by hand."""
    pages = {}
    for path in (site_dir / BUNDLE / "fragment").glob("*.pf_fragment"):
        data = gzip.decompress(path.read_bytes())
        fragment = json.loads(data[data.index(b"{"):])
        pages[fragment["url"]] = fragment
    return pages


def _indexed_pages(log: str) -> int:
    """The count from Pagefind's summary line "Indexed N pages"."""
    for line in log.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "Indexed" and words[2].startswith("page"):
            return int(words[1])
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path, help="the built site (MkDocs' site/)")
    args = parser.parse_args(argv)
    try:
        count = index_site(args.site_dir)
    except SearchIndexError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"search index: {count} pages in {args.site_dir / BUNDLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
