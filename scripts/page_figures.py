"""Figures about how the question pages read: answer lengths, how far down a reader scrolls to the
follow-ups and red flags, the tags in use, and how many claims each page ties to its evidence.

Not a test: it prints figures, for a closing note or a review of a change to the page layout. It
reads the pages' sources for word counts and tags, and opens a built site in Chromium (Debian's,
through Playwright) at a desktop width to measure where each section starts.

    .venv/bin/python scripts/page_figures.py SITE_DIR [--docs docs] [--json out.json]

SITE_DIR is the output of `mkdocs build` (for example: mkdocs build -d /tmp/site).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import sys
import threading
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from question_pages.format.loading import load_pages  # noqa: E402
from question_pages.format.model import WORD_RANGES  # noqa: E402
from question_pages.format.parse import words  # noqa: E402
from question_pages.format.ties import coverage  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1280, "height": 800}
MEASURE = """() => {
  const top = (id) => { const el = document.getElementById(id);
    return el ? Math.round(el.getBoundingClientRect().top + window.scrollY) : null; };
  return {follow_ups: top("follow-ups"), red_flags: top("red-flags"), explainer: top("explainer"),
          height: document.documentElement.scrollHeight};
}"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """One line per request would bury the figures."""


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def spread(values: list[int]) -> str:
    return (f"median {statistics.median(values):,.0f}, min {min(values):,}, max {max(values):,} "
            f"(n={len(values)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    pages, _ = load_pages(args.docs.resolve().parent, args.docs.resolve())
    figures: dict[str, object] = {}
    for title in WORD_RANGES:
        counts = [words(s.text) for p in pages if (s := p.section(title))]
        figures[f"{title} words"] = spread(counts)
    covered = [coverage(p.page_id, {s.title: s.body for s in p.sections}, p.raw) for p in pages]
    figures["ties"] = {
        "short-answer bullets tied":
            f"{sum(c.bullets_tied for c in covered)}/{sum(c.bullets for c in covered)}",
        "red flags tied": f"{sum(c.red_flags_tied for c in covered)}/{sum(c.red_flags for c in covered)}",
        "ties in the explainers and answers": sum(c.other_ties for c in covered),
        "ties to the torch source": sum(c.source_ties for c in covered)}
    tags = Counter(tag for page in pages for tag in page.meta.get("tags", []))
    figures["tags"] = {"distinct": len(tags), "used on one page": sum(1 for n in tags.values() if n == 1)}

    from playwright.sync_api import sync_playwright

    server, base = serve(args.site)
    measured: dict[str, dict[str, int | None]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]})
            for question in sorted(pages, key=lambda p: p.page_id):
                page.goto(base + question.page_id + "/", wait_until="load")
                measured[question.page_id] = page.evaluate(MEASURE)
            browser.close()
    finally:
        server.shutdown()
    for key in ("follow_ups", "red_flags", "height"):
        values = [value for m in measured.values() if (value := m[key]) is not None]
        figures[f"px to {key.replace('_', '-')}" if key != "height" else "page height px"] = spread(values)
    for name, figure in figures.items():
        print(f"{name}: {figure}")
    for row in sorted(covered, key=lambda c: c.page_id):
        print(f"  ties, {row.row()}")
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "pages": measured,
                                         "ties": [c.__dict__ for c in covered]}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
