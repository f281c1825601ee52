"""When the pages last changed: from the commits that touched them, never from when the files were
checked out, so that every clone of one commit stamps the decks' notes with the same time."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from question_pages.sitewide.source_time import FALLBACK, SourceTimeError, content_time

PAGE_COMMIT = 1_800_000_000
OTHER_COMMIT = 1_800_100_000


def _git(repo: Path, *args: str, when: int | None = None) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    if when is not None:
        env |= {"GIT_AUTHOR_DATE": f"{when} +0000", "GIT_COMMITTER_DATE": f"{when} +0000"}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, timeout=60)


def _touch(path: Path, stamp: int) -> None:
    os.utime(path, (stamp, stamp))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two committed pages, then a commit that touches only the README."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    (tmp_path / "docs" / "export").mkdir(parents=True)
    for name in ("a.md", "b.md"):
        (tmp_path / "docs" / "export" / name).write_text(f"{name}\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("readme\n", encoding="utf-8")
    _git(tmp_path, "init", "--quiet")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "--quiet", "-m", "pages", when=PAGE_COMMIT)
    (tmp_path / "README.md").write_text("readme, edited\n", encoding="utf-8")
    _git(tmp_path, "commit", "--quiet", "-am", "not the pages", when=OTHER_COMMIT)
    return tmp_path


def _pages(repo: Path) -> list[Path]:
    return sorted((repo / "docs").rglob("*.md"))


def test_the_last_commit_that_touched_a_page_not_the_file_times(repo: Path) -> None:
    for path in _pages(repo):
        _touch(path, 1_900_000_000)  # a checkout made long after the commit
    assert content_time(_pages(repo)) == PAGE_COMMIT  # not the README's later commit either


def test_a_committed_change_to_a_page_moves_it(repo: Path) -> None:
    (repo / "docs" / "export" / "b.md").write_text("b, edited\n", encoding="utf-8")
    _git(repo, "commit", "--quiet", "-am", "edit b", when=OTHER_COMMIT + 50)
    assert content_time(_pages(repo)) == OTHER_COMMIT + 50


def test_an_uncommitted_edit_or_a_new_page_counts_with_its_file_time(repo: Path) -> None:
    edited = repo / "docs" / "export" / "a.md"
    edited.write_text("a, edited\n", encoding="utf-8")
    _touch(edited, PAGE_COMMIT + 10)  # older than the README's commit, newer than the pages'
    assert content_time(_pages(repo)) == PAGE_COMMIT + 10
    new = repo / "docs" / "export" / "c.md"
    new.write_text("c\n", encoding="utf-8")
    _touch(new, OTHER_COMMIT + 99)
    assert content_time(_pages(repo)) == OTHER_COMMIT + 99


def test_outside_git_the_newest_file_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    pages = [tmp_path / "a.md", tmp_path / "b.md"]
    for stamp, path in zip((1_700_000_000, 1_700_000_500), pages, strict=True):
        path.write_text("x\n", encoding="utf-8")
        _touch(path, stamp)
    assert content_time(pages) == 1_700_000_500
    assert content_time([]) == FALLBACK


def test_source_date_epoch_wins_and_must_be_a_number(repo: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")
    assert content_time(_pages(repo)) == 1_234_567_890
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(SourceTimeError, match="not a whole number of seconds"):
        content_time(_pages(repo))
