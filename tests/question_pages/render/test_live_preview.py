"""The live preview end to end: `mkdocs serve` of a real site copy, a snippet edited on disk, and
the served page changing by itself: the new real output after a good edit (recorded, through the
engine), the error after a bad one (marked as a preview, nothing recorded), and no process left
once the server stops. Served with --dirty, as scripts/dev.sh serve does: a snippet save rebuilds
only the pages that show it, and each of them must be what a full rebuild makes."""

from __future__ import annotations

import dataclasses
import html
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from helpers import alive, run_cli
from preview_server import serving, wait_for
from snippet_engine.records.record_file import read_record

SNIPPET = "snippets/export/fixture_plain.py"
PAGE = "export/other-page/"
SECOND = "export/good-page/"  # shows the snippet too, in the copies of the test below
# The first build of `mkdocs serve` (the server answers nothing until it is done): seconds on an
# idle machine, over a minute when the machine is shared (a CI run beside other work failed at 60).
STARTUP_S = 240


def _text(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def _page(body: str) -> str:
    """A served page without what differs between two serves of the same HTML: the livereload
    script's build epoch and request id."""
    return re.sub(r"livereload\(\d+, \d+\);", "livereload();", body)


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


def _write_cuda_record(root: Path, rel: str, hardware: str) -> None:
    """The snippet's CUDA record as a GPU runner would write it, for its current source."""
    from snippet_engine.records.cachekey import compute_key
    from snippet_engine.records.environment import Environment
    from snippet_engine.records.record_file import write_atomic
    from snippet_engine.source.discovery import Snippet

    snippet = Snippet(root / rel, rel)
    cpu = read_record(snippet.record_path("cpu"))
    env = Environment("cuda", "2.13.0+cu130", cpu.python, hardware)
    key, _ = compute_key(snippet, env, root)
    write_atomic(snippet.record_path("cuda"), dataclasses.replace(
        cpu, device="cuda", key=key, torch=env.torch_version, hardware=hardware,
        output=cpu.output + "device: cuda:0\n").render())


def _builds(log: Path) -> int:
    return log.read_text(encoding="utf-8", errors="replace").count("Documentation built in")


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
    log = tmp_path / "serve.log"
    with serving(copy, log) as (base, server_pid):
        url = base + PAGE
        assert "plain output, no CUDA record" in _text(wait_for(url, bool, STARTUP_S)[1])

        # The page ties a sentence to "plain output": an edit that keeps it keeps the page valid.
        snippet.write_text("print('plain output, edited while the preview runs')\n")
        _, body = wait_for(url, lambda b: "edited while the preview runs" in _text(b), 90)
        assert "Live preview" not in _text(body)
        # One save, one rebuild: the rebuild reading the snippet (and writing its record) must
        # not look like another save to the file watcher.
        builds = _builds(log)
        time.sleep(3)
        assert _builds(log) == builds, log.read_text()[-2000:]
        record = read_record(record_path)
        assert record.output == "plain output, edited while the preview runs\n" and not record.is_stale
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

        snippet.write_text("print('plain output fixed again')\n")
        _, body = wait_for(url, lambda b: "fixed again" in _text(b) and "Live preview" not in _text(b), 90)
        assert read_record(record_path).output == "plain output fixed again\n"

        # A record that changes on disk while its snippet does not (the CUDA records' pull
        # request, a git pull) shows too, and again when it changes once more.
        for gpu in ("NVIDIA H200 (pulled)", "NVIDIA H100 (pulled again)"):
            _write_cuda_record(copy, SNIPPET, gpu)
            wait_for(url, lambda b, gpu=gpu: gpu in _text(b) and "device: cuda:0" in _text(b), 90)
        workers = _descendants(server_pid)
        assert workers, "the warm worker the preview keeps between rebuilds"
    # on_shutdown stopped the warm workers: none of them outlives the server. A signalled
    # process takes a moment to exit on a loaded machine, so a few seconds are allowed for it.
    deadline = time.monotonic() + 15
    while [pid for pid in workers if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in workers if alive(pid)] == []



def test_a_snippet_save_rebuilds_every_page_that_shows_it_as_a_full_rebuild_would(
        copy: Path, tmp_path: Path) -> None:
    good = copy / "docs/export/good-page.md"
    marker = '{{ snippet("export/fixture_error.py") }}\n'
    assert marker in good.read_text()
    good.write_text(good.read_text().replace(marker, marker + '\n{{ snippet("export/fixture_plain.py") }}\n'))
    server_tmp = tmp_path / "server-tmp"
    server_tmp.mkdir()
    # Stopped as a closed terminal stops it (SIGHUP), the warm worker and its folder must go too.
    with serving(copy, tmp_path / "serve.log", stop=signal.SIGHUP, tmpdir=server_tmp) as (
            base, server_pid):
        for page in (PAGE, SECOND):
            assert "plain output, no CUDA record" in _text(wait_for(base + page, bool, STARTUP_S)[1])

        (copy / SNIPPET).write_text("print('plain output saved during serve')\n")
        wait_for(base + PAGE, lambda b: "saved during serve" in _text(b), 90)
        # The other page of the same snippet was rebuilt too: it must not show the old output.
        _, second = wait_for(base + SECOND, lambda b: "saved during serve" in _text(b), 10)
        assert "plain output, no CUDA record" not in _text(second)
        _, first = wait_for(base + PAGE, bool, 10)
        # The page's notebook download follows a moment later (written after the reload).
        wait_for(base + "notebooks/export/other-page.ipynb", lambda b: "saved during serve" in b, 60)

        # A page edit rebuilds every page: other-page, untouched since the snippet save, must be
        # exactly what the snippet-only rebuild served (navigation titles, related links, tags).
        good.write_text(good.read_text().replace(
            "That is the whole point of this fixture page.",
            "That is the whole point of this fixture page. Edited during serve."))
        wait_for(base + SECOND, lambda b: "Edited during serve." in _text(b), 90)
        _, full = wait_for(base + PAGE, bool, 10)
        assert _page(full) == _page(first)

        # A page's new title shows in the navigation of the pages it did not change.
        good.write_text(good.read_text().replace(
            'question: "What does the fixture snippet print, and why does it matter?"',
            'question: "What does the renamed fixture snippet print?"'))
        wait_for(base + PAGE, lambda b: "What does the renamed fixture snippet print?" in _text(b), 90)

        # And a snippet save after that still shows on both pages.
        (copy / SNIPPET).write_text("print('plain output saved again')\n")
        for page in (PAGE, SECOND):
            _, body = wait_for(base + page, lambda b: "saved again" in _text(b), 90)
            assert "What does the renamed fixture snippet print?" in _text(body)
        workers = _descendants(server_pid)
        assert workers, "the warm worker the preview keeps between rebuilds"
    deadline = time.monotonic() + 15
    while [pid for pid in workers if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in workers if alive(pid)] == []
    assert list(server_tmp.glob("snippet-worker-*")) == [], "the worker's folder was left behind"
