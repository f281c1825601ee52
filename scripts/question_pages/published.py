"""Links that last: every URL the site has published must still resolve, to a page or a redirect.

`docs/published-urls.txt` lists every page source ever published (one per line, docs-relative).
Moving or deleting a page without adding `old.md: new.md` to `redirect_maps` in mkdocs.yml
fails the build, so a guide that linked the old URL keeps working.
"""

from __future__ import annotations

from pathlib import Path

LEDGER = "docs/published-urls.txt"


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


def missing_redirects(root: Path, sources: set[str], redirects: dict[str, str]) -> list[str]:
    problems = []
    for number, uri in read_ledger(root):
        if uri not in sources and uri not in redirects:
            problems.append(f"{LEDGER}:{number}: '{uri}' was published but is no longer a page. "
                            f"Add '{uri}: <new page>.md' to redirect_maps in mkdocs.yml")
    listed = {uri for _, uri in read_ledger(root)}
    for uri in sorted(sources):
        if uri.endswith((".md", ".ipynb")) and uri not in listed:
            problems.append(f"{LEDGER}: page '{uri}' is not listed. Add it as a line, so that a "
                            "later move of the page has to leave a redirect")
    return problems


def append(root: Path, uri: str) -> None:
    path = root / LEDGER
    existing = {u for _, u in read_ledger(root)}
    if uri not in existing:
        with path.open("a", encoding="utf-8") as fh:
            fh.write(uri + "\n")
