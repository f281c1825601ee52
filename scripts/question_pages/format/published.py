"""Links that last: every URL the site has published must still resolve, to a page or a redirect.

`docs/published-urls.txt` lists every page source ever published (one per line, docs-relative).
Moving or deleting a page without adding `old.md: new.md` to `redirect_maps` in mkdocs.yml
fails the build, so a guide that linked the old URL keeps working.
"""

from __future__ import annotations

from pathlib import Path

from question_pages.format.model import PageError

LEDGER = "docs/published-urls.txt"
# What the ledger must list: pages, notebooks, and the data files (questions.json, its schema,
# the decks) that guides and flashcard apps link to; not the theme's assets.
LISTED_SUFFIXES = (".md", ".ipynb", ".json", ".apkg", ".tsv")


def read_ledger(root: Path) -> list[tuple[int, str]]:
    path = root / LEDGER
    if not path.exists():
        return []
    entries = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        uri = raw.split("#", 1)[0].strip()
        if uri:
            entries.append((number, uri))
    return entries


def missing_redirects(root: Path, sources: set[str], redirects: dict[str, str]) -> list[PageError]:
    """Published URLs that resolve to nothing, and pages that are not yet in the ledger.

    `sources` is every docs-relative source the site will have, generated ones included (a
    topic's notebook), so that a problem elsewhere never makes a page look deleted.
    """
    problems = []
    entries = read_ledger(root)
    for number, uri in entries:
        if uri not in sources and uri not in redirects:
            problems.append(PageError(LEDGER, number, f"'{uri}' was published but is no longer a page",
                                      f"Add '{uri}: <new page>.md' to redirect_maps in mkdocs.yml"))
    listed = {uri for _, uri in entries}
    end = (entries[-1][0] + 1) if entries else 1
    for uri in sorted(sources):
        if uri.endswith(LISTED_SUFFIXES) and uri not in listed:
            problems.append(PageError(LEDGER, end, f"page '{uri}' is not listed",
                                      f"Add the line '{uri}', so that a later move of the page has "
                                      "to leave a redirect (scripts/new_question.py and "
                                      "new_topic.py add it for you)"))
    return problems


def append(root: Path, uri: str) -> bool:
    """List `uri` in the ledger; True when it was not listed before."""
    path = root / LEDGER
    existing = {u for _, u in read_ledger(root)}
    if uri in existing:
        return False
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    with path.open("a", encoding="utf-8") as fh:
        fh.write(("" if not text or text.endswith("\n") else "\n") + uri + "\n")
    return True
