#!/usr/bin/env python3
"""Benchmark: the snippet engine against one fresh `python` per snippet, over the whole bank.

Not a test: it prints figures. Both ways run on copies of snippets/ in temporary folders, so the
committed records are never touched. The baseline is what a naive build script does: run each
snippet with `python snippet.py`, one after another, in an empty working directory. The engine
run is `snippets.py run --force` with its default --jobs (the number of cores).

    .venv/bin/python scripts/bench_snippets.py [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from snippet_engine.discovery import discover  # noqa: E402
from snippet_engine.scheduler import worker_env  # noqa: E402


def copy_bank(dest: Path) -> Path:
    shutil.copytree(ROOT / "snippets", dest / "snippets",
                    ignore=shutil.ignore_patterns("*.cpu.txt", "*.cuda.txt", "__pycache__"))
    return dest


def baseline(root: Path) -> float:
    env = worker_env("cpu")
    env.pop("PYTHONPATH", None)
    started = time.perf_counter()
    for snippet in discover(root):
        with tempfile.TemporaryDirectory() as cwd:
            subprocess.run([sys.executable, str(snippet.path)], cwd=cwd, env=env, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def engine(root: Path, jobs: int, fresh: bool = False) -> tuple[float, list[tuple[float, str]]]:
    """Wall time of a forced engine run, and each snippet's (seconds, path), longest first."""
    report = root / "bench-report.json"
    started = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "scripts" / "snippets.py"), "--root", str(root),
                    "run", "--force", "--jobs", str(jobs), "--progress", "never",
                    "--report", str(report), *(["--fresh"] if fresh else [])],
                   check=False, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    runs = json.loads(report.read_text())["snippets"]
    return wall, sorted(((s["seconds"], s["path"]) for s in runs), reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_bank(Path(tmp))
        count = len(discover(root))
        print(f"bank: {count} snippets, {os.cpu_count()} cores, engine --jobs {args.jobs}")
        base = baseline(root)
        print(f"one fresh python per snippet, serial : {base:8.1f} s")
        warm, durations = engine(root, args.jobs)
        print(f"engine, warm workers, --jobs {args.jobs:<2}     : {warm:8.1f} s")
        longest, path = durations[0]
        print(f"  of which the longest snippet alone   : {longest:8.1f} s ({path}); no parallel run"
              " can finish sooner")
        print(f"  sum of all snippet times             : {sum(d for d, _ in durations):8.1f} s")
        fresh, _ = engine(root, args.jobs, fresh=True)
        print(f"engine, --fresh, --jobs {args.jobs:<2}          : {fresh:8.1f} s")
        idle_started = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "scripts" / "snippets.py"), "--root",
                        str(root), "run"], check=False, stderr=subprocess.DEVNULL)
        idle = time.perf_counter() - idle_started
        print(f"engine, nothing to do (all cached)    : {idle:8.2f} s")
        print(f"speed-up of the engine over the baseline: {base / warm:.1f}x (goal: at least 5x)")


if __name__ == "__main__":
    main()
