"""`summary`: a sharded run's pull request says what failed, which shard was silent, and what is
still missing, and the exit status says whether everything is current."""

from __future__ import annotations

import json
import platform
from pathlib import Path

from helpers import run_cli, write
from snippet_engine.commands.summary import report_name
from snippet_engine.records.cachekey import compute_key, snippet_packages
from snippet_engine.records.environment import Environment, torch_version
from snippet_engine.records.record_file import Record, write_atomic
from snippet_engine.source.discovery import Snippet


def cuda_record(root: Path, rel: str) -> None:
    """A current CUDA record, as a GPU shard writes it."""
    snippet = Snippet(root / rel, rel)
    env = Environment("cuda", torch_version(), platform.python_version(), "GPU, CUDA 13.0")
    key, helpers = compute_key(snippet, env, root)
    record = Record(snippet=rel, device="cuda", status="ok", output="1\n", key=key,
                    source_sha256="s", engine="6", torch=env.torch_version,
                    python=env.python_version, hardware=env.hardware, duration_s=1.0,
                    peak_rss_mib=1.0, recorded="2026-12-01T00:00:00Z", helpers=helpers,
                    packages=snippet_packages(snippet, root))
    write_atomic(snippet.record_path("cuda"), record.render())


def shard_report(folder: Path, k: int, entries: list[tuple[str, str, bool, str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / report_name("cuda", k)).write_text(json.dumps({"snippets": [
        {"path": path, "device": "cuda", "status": status, "cached": cached, "seconds": 1.0,
         "output": "", "message": message} for path, status, cached, message in entries]}))


def test_failures_silent_shards_and_missing_records_are_all_named(repo: Path) -> None:
    for name in ("a", "b", "c", "d"):
        write(repo, f"snippets/t/{name}.py", f"print('{name}')\n")
    cuda_record(repo, "snippets/t/a.py")
    cuda_record(repo, "snippets/t/d.py")
    reports = repo / "shard-reports"
    shard_report(reports, 1, [("snippets/t/a.py", "ok", False, ""),
                              ("snippets/t/d.py", "ok", True, "")])
    shard_report(reports, 2, [("snippets/t/c.py", "failed",
                               False, "raised RuntimeError at line 3: x.cuda()")])
    # shard 3 died before uploading its report; b.py was in it
    done = run_cli("summary", "--device", "cuda", "--shards", "3", "--reports", str(reports),
                   "--output", str(repo / "body.md"), root=repo)
    assert done.returncode == 1, done.stderr
    body = (repo / "body.md").read_text()
    assert ("1 snippet(s) recorded, 1 already current, 1 failed, 2 of 3 shard(s) reported"
            in body)
    assert "- `snippets/t/c.py`: failed: raised RuntimeError at line 3: x.cuda()" in body
    assert "- shard 3 of 3" in body
    assert "- `snippets/t/b.py`: missing: no record yet" in body
    assert "snippets/t/a.py`:" not in body and "snippets/t/d.py`:" not in body


def test_a_complete_run_says_so_and_exits_0(repo: Path) -> None:
    write(repo, "snippets/t/a.py", "print('a')\n")
    cuda_record(repo, "snippets/t/a.py")
    shard_report(repo / "r", 1, [("snippets/t/a.py", "ok", False, "")])
    done = run_cli("summary", "--shards", "1", "--reports", str(repo / "r"), root=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Every cuda record is present and current." in done.stdout


def test_cuda_only_snippets_are_listed_awaiting_their_record(repo: Path) -> None:
    """A snippet that declares `#| devices: cuda` has no CPU record to stand in for it: summary
    names each one, with or without a shard run to read, and says which await their record."""
    write(repo, "snippets/gpu/alloc.py", "#| devices: cuda\nprint('a')\n")
    write(repo, "snippets/gpu/streams.py", "#| devices: cuda\nprint('s')\n")
    write(repo, "snippets/gpu/both.py", "print('b')\n")  # CPU and CUDA: not CUDA-only
    cuda_record(repo, "snippets/gpu/streams.py")
    done = run_cli("summary", "--device", "cuda", root=repo)
    assert done.returncode == 1, done.stderr  # alloc.py and both.py have no CUDA record
    body = done.stdout
    assert "CUDA records as committed (no run was read)" in body
    assert "2 snippet(s) run on cuda alone; 1 await their record" in body
    assert "- `snippets/gpu/alloc.py`: awaiting its record (missing)" in body
    assert "- `snippets/gpu/streams.py`: recorded" in body
    only = body.split("### CUDA-only snippets", 1)[1].split("###", 1)[0]
    assert "both.py" not in only


def test_check_on_cpu_passes_with_a_cuda_only_snippet_unrecorded(repo: Path) -> None:
    write(repo, "snippets/gpu/alloc.py", "#| devices: cuda\nprint('a')\n")
    done = run_cli("check", root=repo)
    assert done.returncode == 0, done.stdout
    assert "cuda: 1 missing record(s)" in done.stdout  # said, as a note that does not fail
