"""The sites under test: where each was built from and is served, what pages it must have, and
the pages that each break one gate."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers import ROOT, mkdocs_env
from question_pages.format.loading import load_pages
from question_pages.format.topics import load_topics

REPORT_DIR = ROOT / "build" / "site-report"  # gitignored; CI can keep it as an artifact


@dataclass
class Site:
    """A built site, where it is served, and what its source says it must contain."""

    name: str
    root: Path  # the source: mkdocs.yml, docs/, snippets/
    dir: Path   # the built HTML
    base: str   # the URL it is served at, ending in /
    questions: list[str] = field(default_factory=list)  # question pages' URLs, e.g. export/slug/

    def url(self, rel: str) -> str:
        return self.base + rel

    def heaviest_question(self) -> str:
        """The question page with the most HTML: the worst case for weight and speed."""
        return max(self.questions, key=lambda rel: (self.dir / rel / "index.html").stat().st_size)

    @property
    def topics(self) -> list[str]:
        """The topics its source declares (docs/topics.yml), in learning order."""
        return [topic.id for topic in load_topics(self.root / "docs")]

    @property
    def pages(self) -> list[str]:
        """Every HTML page of the build, as a URL relative to the base; redirect stubs (a
        moved page's old URL) are left out: they are not pages but pointers to one."""
        found = []
        for path in sorted(self.dir.rglob("*.html")):
            head = path.read_text(encoding="utf-8")[:2000]
            if 'http-equiv="refresh"' in head or not head.lstrip().lower().startswith("<!doctype html"):
                continue  # a redirect stub, or a fragment a page fetches (the index's later rows)
            rel = path.relative_to(self.dir).as_posix()
            found.append(rel.removesuffix("index.html"))
        return found


def build_site(root: Path, dest: Path) -> None:
    """`mkdocs build --strict` of the site whose source is `root`, into `dest`."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"),
         "-d", str(dest)], capture_output=True, text=True, env=mkdocs_env(), cwd=root, timeout=900,
        check=False)
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict of {root} failed:\n{done.stderr[-4000:]}", pytrace=False)


def question_urls(root: Path) -> list[str]:
    pages, _ = load_pages(root)
    return [page.page_id + "/" for page in pages]


BROKEN_PAGES = {
    # Each page breaks exactly one gate; test_gates_catch_breaks.py shows the gate says so.
    "broken-external-script.md": "# External script\n\nA chart library from a CDN.\n\n"
        '<script src="https://cdn.jsdelivr.net/npm/chart.js@4/dist/chart.umd.min.js"></script>\n',
    "broken-anchor.md": "# Broken anchor\n\n"
        '<p>See <a href="../export/good-page/#no-such-section">a section that does not exist</a>.</p>\n',
    "broken-alt.md": '# Missing alt text\n\n<p><img src="../pixel.svg" width="40" height="40"></p>\n',
    "broken-console.md": "# Console error\n\n<script>console.error('broken on purpose')</script>\n",
    "broken-wide.md": '# Too wide for a phone\n\n<div style="width: 900px">A fixed-width box.</div>\n',
}
PIXEL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">'
             '<rect width="1" height="1"/></svg>\n')
