"""The drills in questions.json: what a guide author or a tool needs to link a drill, show its
task and judge a solution with the same judge (its download), from the checked page and the
drill's own files; the tests are those the recorded verdict on the reference lists."""

from __future__ import annotations

import posixpath
from pathlib import Path

from question_pages.sitewide.site_urls import Site

from .pages import DrillPage
from .render import download_name, judged_tests


def drill_entry(page: DrillPage, site: Site, root: Path) -> dict:
    path = site.path(page.page_id + ".md")
    download = posixpath.join(path, download_name(page.id))
    task = page.page.section("Task")
    return {
        "id": page.id, "title": page.title, "level": page.level, "minutes": page.minutes,
        "path": path, "url": site.absolute(path),
        "download": site.absolute(download),
        "task": task.text if task is not None else "",
        "starter": page.drill.starter.read_text(encoding="utf-8"),
        "reference": page.drill.reference.read_text(encoding="utf-8"),
        "tests": [{"name": name, "checks": says} for name, says in judged_tests(page, root)],
        "mistakes": [{"name": m.name, "says": m.says, "fails": m.fails} for m in page.drill.mistakes],
        "hints": page.hints,
    }


def drill_entries(pages: list[DrillPage], site: Site, root: Path) -> list[dict]:
    return [drill_entry(page, site, root) for page in sorted(pages, key=lambda p: p.id)]
