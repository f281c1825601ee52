"""`run --shard K/N --list`: the split CI's matrix uses is a partition, and every call agrees.

The CUDA workflow runs one shard per runner, each computing the split on its own; a snippet in two
shards is recorded twice and one in none is never recorded. So the CLI itself, not only
`sharding.assign`, must give each snippet to exactly one shard, the same way on every call.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.execution.sharding import assign
from snippet_engine.records.record_file import Record
from snippet_engine.source.discovery import Snippet

# Recorded seconds per snippet and device; None: no record yet (the default estimate applies).
DURATIONS: dict[str, dict[str, float | None]] = {
    "a": {"cpu": 40.0, "cuda": 5.0},
    "b": {"cpu": 12.5, "cuda": 61.0},
    "c": {"cpu": 3.0, "cuda": None},
    "d": {"cpu": None, "cuda": 9.0},
    "e": {"cpu": 7.0, "cuda": 7.0},
    "f": {"cpu": 1.0, "cuda": 0.5},
    "g": {"cpu": 22.0, "cuda": 30.0},
    "h": {"cpu": 7.0, "cuda": None},
}


def _record(rel: str, device: str, seconds: float) -> str:
    return Record(
        snippet=rel, device=device, status="ok", output="1\n", key="k", source_sha256="s",
        engine="1", torch="2.13.0", python="3.11.7", hardware="test", duration_s=seconds,
        peak_rss_mib=1.0, recorded="2026-01-01T00:00:00Z").render()


@pytest.fixture
def bank(repo: Path) -> Path:
    for name, per_device in DURATIONS.items():
        rel = f"snippets/t/{name}.py"
        snippet = Snippet(write(repo, rel, "print(1)\n"), rel)
        for device, seconds in per_device.items():
            if seconds is not None:
                snippet.record_path(device).write_text(_record(rel, device, seconds))
    write(repo, "snippets/t/cpu_only.py", "#| devices: cpu\nprint(1)\n")
    return repo


def _listed(root: Path, *args: str, env: dict | None = None) -> list[str]:
    done = run_cli("run", *args, "--list", root=root, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_every_snippet_is_in_exactly_one_shard_and_the_split_repeats(bank: Path, device: str) -> None:
    everything = _listed(bank, "--device", device)
    expected = sorted(f"snippets/t/{n}.py" for n in DURATIONS) + (
        ["snippets/t/cpu_only.py"] if device == "cpu" else [])
    assert everything == sorted(expected)
    splits = {}
    for shards in (1, 3, len(everything) + 1):  # the last leaves a shard empty
        splits[shards] = [_listed(bank, "--device", device, "--shard", f"{k}/{shards}")
                          for k in range(1, shards + 1)]
        listed = [rel for shard in splits[shards] for rel in shard]
        assert sorted(listed) == everything, f"{shards} shards: a snippet is missing or repeated"
    again = [_listed(bank, "--device", device, "--shard", f"{k}/3", env={"PYTHONHASHSEED": str(k)})
             for k in (1, 2, 3)]
    assert again == splits[3], "a second call split differently"


def test_the_split_follows_the_recorded_durations_longest_first(bank: Path) -> None:
    durations = [(f"snippets/t/{n}.py", d["cuda"]) for n, d in DURATIONS.items()]
    split = [_listed(bank, "--device", "cuda", "--shard", f"{k}/3") for k in (1, 2, 3)]
    assert split == assign(durations, 3)
    assert split[0] == ["snippets/t/b.py"]  # 61 s alone outweighs everything else on one shard


def test_list_runs_nothing_and_needs_no_gpu(bank: Path) -> None:
    before = {p: p.stat().st_mtime_ns for p in bank.rglob("*")}
    # Listing never probes the device, so a CUDA split can be shown on a machine without a GPU.
    assert _listed(bank, "--device", "cuda", "--shard", "1/2")
    assert {p: p.stat().st_mtime_ns for p in bank.rglob("*")} == before
