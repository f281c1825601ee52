"""The site builds the same with ProperDocs, MkDocs' maintained 1.x continuation, as with MkDocs:
the same pages, each with the same main content, and the same data files. One ProperDocs build;
the MkDocs build is the session's real site."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

from check_generators import build, compare_sites, generator_of, main_content

from helpers import ROOT
from question_pages.format.loading import question_page_paths


def test_properdocs_builds_the_same_site_as_mkdocs(real_site: Path, tmp_path: Path) -> None:
    site = tmp_path / "properdocs-site"
    done = build("properdocs", site)
    assert done.returncode == 0, done.stderr[-4000:]
    assert generator_of(site / "index.html").startswith("mkdocs-ProperDocs ")
    assert generator_of(real_site / "index.html").startswith("mkdocs-1.")
    assert compare_sites(real_site, site, ("mkdocs", "properdocs")) == []
    # Every question page was compared by its content, which holds its answers.
    for path in question_page_paths(ROOT / "docs"):
        rel = path.relative_to(ROOT / "docs").with_suffix("").as_posix() + "/index.html"
        content = main_content((site / rel).read_text(encoding="utf-8"))
        assert content and 'id="short-answer"' in content and 'id="red-flags"' in content, rel


def _site(root: Path, pages: dict[str, str], files: dict[str, bytes]) -> Path:
    for rel, article in pages.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(
            f'<html><head><meta name="generator" content="{root.name}"></head><body>'
            f'<article class="md-content__inner md-typeset">{article}</article></body></html>',
            encoding="utf-8")
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def test_each_kind_of_difference_is_reported_and_the_head_is_not(tmp_path: Path) -> None:
    pages = {"index.html": "<h1>Home</h1>", "export/a/index.html": "<h1>A</h1>\n<p>one</p>"}
    files = {"questions.json": b"{}", "decks/export.apkg": b"PK", "search/index.json": b"[1]"}
    first = _site(tmp_path / "mkdocs", pages, files)
    same = _site(tmp_path / "properdocs", pages, files | {"search/index.json": b"[2]"})
    assert compare_sites(first, same) == []  # another <meta name="generator">, another search index

    other = _site(tmp_path / "other",
                  {"index.html": "<h1>Home</h1>", "export/a/index.html": "<h1>A</h1>\n<p>two</p>",
                   "export/b/index.html": "<h1>B</h1>"},
                  {"questions.json": b"{ }", "decks/export.apkg": b"PK"})
    problems = "\n".join(compare_sites(first, other, ("mkdocs", "properdocs")))
    assert "export/b/index.html: only the properdocs build wrote it" in problems
    assert re.search(r"export/a/index.html: the main content differs\n\s+@@ -2 \+2 @@\n"
                     r"\s+-<p>one</p>\n\s+\+<p>two</p>", problems)
    assert "questions.json: the bytes differ" in problems
    assert "search/: only the mkdocs build wrote a search index there" in problems
    assert "decks/export.apkg" not in problems and "index.html: the" not in problems.replace(
        "export/a/index.html", "")


def test_properdocs_is_pinned_exactly_and_installed_at_its_pin() -> None:
    pins = (ROOT / "requirements-dev.txt").read_text(encoding="utf-8")
    (pin,) = re.findall(r"^properdocs==(\S+)$", pins, re.MULTILINE)
    assert importlib.metadata.version("properdocs") == pin
    assert f"properdocs=={pin}" in (ROOT / "constraints.txt").read_text(encoding="utf-8").split()
