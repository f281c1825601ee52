"""The live preview end to end: `mkdocs serve` of a real site copy, a snippet edited on disk, and
the served page changing by itself: the new real output after a good edit (recorded, through the
engine), the error after a bad one (marked as a preview, nothing recorded), and no process left
once the server stops."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from helpers import alive, run_cli
from preview_server import serving, wait_for
from snippet_engine.records import read_record

SNIPPET = "snippets/export/fixture_plain.py"
PAGE = "export/other-page/"


def _text(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def _descendants(pid: int) -> list[int]:
    """Every process started by `pid`, directly or not (the warm workers run in sessions of
    their own, so the process group does not find them)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        children = [child for child, parent in parents.items() if parent == current]
        found += children
        frontier += children
    return [p for p in found if alive(p)]


@pytest.fixture
def copy(site_source: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(site_source, dest, ignore=shutil.ignore_patterns("site", ".cache"))
    return dest


def test_an_edited_snippet_shows_its_new_output_and_a_failure_is_never_recorded(
        copy: Path, tmp_path: Path) -> None:
    snippet = copy / SNIPPET
    record_path = copy / "snippets/export/fixture_plain.cpu.txt"
    assert "fixture_plain.py" in (copy / "docs/export/other-page.md").read_text()
    with serving(copy, tmp_path / "serve.log") as (base, server_pid):
        url = base + PAGE
        assert "plain output, no CUDA record" in _text(wait_for(url, bool, 60)[1])

        snippet.write_text("print('edited while the preview runs')\n")
        _, body = wait_for(url, lambda b: "edited while the preview runs" in _text(b), 90)
        assert "Live preview" not in _text(body)
        record = read_record(record_path)
        assert record.output == "edited while the preview runs\n" and not record.is_stale
        assert run_cli("check", root=copy).returncode == 0, "the preview's record is a real record"
        good_record = record_path.read_bytes()

        snippet.write_text("print('about to fail')\nraise ValueError('not the point')\n")
        _, body = wait_for(url, lambda b: "Live preview" in _text(b), 90)
        text = _text(body)
        assert "Live preview: the current code failed; nothing was recorded" in text
        assert "raised ValueError at line 2: raise ValueError('not the point')" in text
        assert "ValueError: not the point" in text and "about to fail" in text
        assert "add '#| expect: ValueError' as its first line" in text
        # The last good output is still there, labelled stale, and its file is untouched.
        assert "Stale CPU record" in text and "edited while the preview runs" in text
        assert record_path.read_bytes() == good_record
        assert run_cli("check", root=copy).returncode == 1, "check still fails on the edit"

        snippet.write_text("print('fixed again')\n")
        _, body = wait_for(url, lambda b: "fixed again" in _text(b) and "Live preview" not in _text(b), 90)
        assert read_record(record_path).output == "fixed again\n"
        workers = _descendants(server_pid)
        assert workers, "the warm worker the preview keeps between rebuilds"
    # on_shutdown stopped the warm workers: none of them outlives the server.
    assert [pid for pid in workers if alive(pid)] == []

