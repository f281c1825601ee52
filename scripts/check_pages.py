#!/usr/bin/env python3
"""Run every check the site build runs, without building it, and report every problem at once.

    python scripts/check_pages.py          # exit 1 and one line per problem: file:line: what. Fix.
    python scripts/check_pages.py --ties   # when it passes: how many claims each page ties
    python scripts/check_pages.py --drift-ties 2.14.1   # the tied sentences that break on 2.14.1

The checks are question_pages.site_checks.check_site, the same function the build's hooks call:
each page's format, topics and their index pages, published URLs and redirects, notebooks. The
docs folder and the redirects are read from mkdocs.yml through MkDocs' own loader, as the build
reads them.
"""

import logging
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from question_pages.format.ties import coverage  # noqa: E402
from question_pages.site_checks import check_site  # noqa: E402


def site_config(config_file: Path) -> tuple[Path, dict[str, str]]:
    """(docs_dir, redirect_maps) as `mkdocs build` sees them."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    os.environ.setdefault("DISABLE_MKDOCS_2_WARNING", "true")
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    from mkdocs.config import load_config

    config = load_config(str(config_file))
    redirects = (config.plugins["redirects"].config["redirect_maps"]
                 if "redirects" in config.plugins else {})
    return Path(config["docs_dir"]), dict(redirects)


def drift_ties(version: str) -> int:
    """Check the pages' source ties against torch `version` in its drift venv (made by
    `snippets.py drift --torch VERSION`), write reports/drift/torch-VERSION-sources.json, and list
    every tied sentence that does not hold on that torch (its output ties against the committed
    drift report)."""
    from question_pages.format.loading import load_pages
    from question_pages.render.drift_reports import load_reports
    from question_pages.render.drift_ties import broken_ties, check_sources, write_sources

    venv = ROOT / ".cache" / "drift-venvs" / f"torch-{version}"
    found = sorted(venv.glob("lib/python*/site-packages/torch"))
    if not found:
        print(f"check_pages.py: no drift venv for torch {version} at {venv}. Make it with: "
              f"python scripts/snippets.py drift --torch {version}", file=sys.stderr)
        return 2
    pages, _ = load_pages(ROOT)
    written = write_sources(ROOT, version, check_sources(pages, found[0].parent, version))
    print(f"source ties checked against torch {version}: {written.relative_to(ROOT)}")
    report = next((r for r in load_reports(ROOT) if r.version == version), None)
    if report is None:
        print(f"no committed drift report for torch {version}: output ties not checked")
        return 1
    broken = broken_ties(pages, ROOT, report)
    for item in broken:
        print(item.markdown())
    print(f"{len(broken)} tied sentence(s) do not hold on torch {version}, or were not checked")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--drift-ties"] and len(sys.argv) == 3:
        return drift_ties(sys.argv[2])
    docs_dir, redirects = site_config(ROOT / "mkdocs.yml")
    result = check_site(ROOT, docs_dir, redirects=redirects)
    for error in result.errors:
        print(error)
    if result.errors:
        print(f"\n{len(result.errors)} problem(s) in {len({e.rel for e in result.errors})} file(s)")
        return 1
    print(f"{len(result.pages)} question page(s) in {len(result.topics)} topic(s): every check "
          "of the build passes")
    covered = [coverage(page.page_id, {s.title: s.body for s in page.sections}, page.raw)
               for page in result.pages]
    if "--ties" in sys.argv[1:]:
        for row in sorted(covered, key=lambda c: c.page_id):
            print(row.row())
    print(f"ties: short-answer bullets {sum(c.bullets_tied for c in covered)}/"
          f"{sum(c.bullets for c in covered)}, red flags {sum(c.red_flags_tied for c in covered)}/"
          f"{sum(c.red_flags for c in covered)}, {sum(c.other_ties for c in covered)} more in the "
          f"explainers and answers; {sum(c.source_ties for c in covered)} of all to the torch "
          "source (--ties: per page)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
