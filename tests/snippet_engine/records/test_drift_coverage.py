"""`check` fails unless each committed drift report covers every CPU snippet at its current key:
a snippet added or changed since the report was made was never run on that torch, and the
report must not stand for it. Records and reports are written here directly; nothing runs."""

from __future__ import annotations

import json
import platform
from pathlib import Path

from helpers import run_cli, write
from snippet_engine.commands import drift
from snippet_engine.execution.runner import Outcome
from snippet_engine.records.cachekey import compute_key, sha256_file
from snippet_engine.records.environment import Environment, torch_version
from snippet_engine.records.record_file import Record, store
from snippet_engine.source.discovery import Snippet


def env() -> Environment:
    return Environment("cpu", torch_version(), platform.python_version(), "x")


def record(root: Path, rel: str, text: str) -> str:
    """Write the snippet and a current record of it; its key."""
    snippet = Snippet(write(root, rel, text), rel)
    key, helpers = compute_key(snippet, env(), root)
    store(snippet.record_path("cpu"), Record(
        snippet=rel, device="cpu", status="ok", output="1\n", key=key,
        source_sha256=sha256_file(snippet.path), engine="x", torch=torch_version(),
        python=platform.python_version(), hardware="x", duration_s=1.0, peak_rss_mib=1.0,
        recorded="2026-12-01T00:00:00Z", helpers=helpers))
    return key


def report(root: Path, keys: dict[str, str | None], version: str = "2.99.0") -> None:
    entries = []
    for rel, key in keys.items():
        entry = {"snippet": rel, "class": "unchanged", "pages": [], "committed": "ok",
                 "now": "ok", "message": "", "only_torch_lines": False, "diff": ""}
        if key is not None:
            entry["key"] = key
        entries.append(entry)
    write(root, f"reports/drift/torch-{version}.json", json.dumps({
        "schema": 1, "generated": "2026-12-01T00:00:00Z", "engine": "x",
        "pinned": {"torch": torch_version()}, "compared": {"torch": version},
        "counts": {"unchanged": len(entries)}, "snippets": entries}))


def test_a_report_of_every_snippet_at_its_key_passes(repo: Path) -> None:
    keys = {rel: record(repo, rel, f"print({n})\n")
            for n, rel in enumerate(("snippets/t/a.py", "snippets/t/b.py"))}
    report(repo, keys)
    done = run_cli("check", root=repo)
    assert done.returncode == 0, done.stdout


def test_a_snippet_added_after_the_report_fails_check(repo: Path) -> None:
    report(repo, {"snippets/t/a.py": record(repo, "snippets/t/a.py", "print(1)\n")})
    record(repo, "snippets/t/new.py", "print(2)\n")
    write(repo, "snippets/t/gpu_only.py", "#| devices: cuda\nprint(3)\n")  # no CPU record
    done = run_cli("check", root=repo)
    assert done.returncode == 1, done.stdout
    assert "FAIL reports/drift/torch-2.99.0.json [cpu]: covers 1 of the 2 CPU snippets" in done.stdout
    assert "snippets/t/new.py (not in it)" in done.stdout
    assert "gpu_only" not in done.stdout.split("FAIL reports/drift", 1)[1].split("\n", 1)[0]
    assert "python scripts/snippets.py drift --torch 2.99.0" in done.stdout


def test_a_snippet_changed_after_the_report_fails_check(repo: Path) -> None:
    report(repo, {"snippets/t/a.py": record(repo, "snippets/t/a.py", "print(1)\n")})
    record(repo, "snippets/t/a.py", "print('changed')\n")
    done = run_cli("check", root=repo)
    assert done.returncode == 1, done.stdout
    assert "snippets/t/a.py (compared at another key: it or what it uses changed since)" in done.stdout


def test_a_report_without_keys_covers_nothing(repo: Path) -> None:
    record(repo, "snippets/t/a.py", "print(1)\n")
    report(repo, {"snippets/t/a.py": None})  # as reports before this check were written
    done = run_cli("check", root=repo)
    assert done.returncode == 1, done.stdout
    assert "covers 0 of the 1 CPU snippets" in done.stdout


def test_the_drift_report_holds_each_snippets_key(repo: Path) -> None:
    key = record(repo, "snippets/t/a.py", "print(1)\n")
    outcome = Outcome("snippets/t/a.py", "cpu", "ok", False, 1.0, "1\n", key="scratch key")
    (item,) = drift.compare(repo, env(), [outcome])["snippets"]
    assert item["key"] == key  # the committed record's, which `check` compares with
