#!/usr/bin/env python3
"""Benchmark: the snippet engine against one fresh `python` per snippet, over the whole bank.

Not a test: it prints figures. Both ways run on copies of snippets/ in temporary folders, so the
committed records are never touched, and both start every snippet with an empty Inductor cache.
Both find the C++ headers torch precompiles where torch keeps them between processes
(`/tmp/torchinductor_<user>/precompiled_headers`, snippet_engine.execution.headers): the figures are a
machine's steady state, not its first AOTInductor compile ever.

- naive: what a build script without an engine does: `python snippet.py` in an empty working
  directory, two at a time (this machine has two cores), each with its own empty
  TORCHINDUCTOR_CACHE_DIR;
- engine: `snippets.py run --force --jobs N` (warm workers; compile snippets forked from a worker
  that already paid Inductor's first-compile cost).

Per kind of snippet (export, compile, AOTInductor) it prints the sum of the snippets' own times
both ways; for the whole bank, the wall time both ways, the longest single snippet (no parallel
run can finish sooner) and the speed-up.

    .venv/bin/python scripts/bench_snippets.py [--jobs N] [--skip-fresh] [--kind KIND]

`--kind aoti` (or export, compile, deployment) runs only the snippets of that kind, both ways:
minutes instead of the whole bank's hour, for work on one kind's cost. The figures then compare
that kind alone; the whole-bank goal (5x) is printed only for a whole-bank run.

`--against REF` compares two engines instead, with no naive run: the engine of REF (a git ref,
checked out in a temporary worktree) and this checkout's, each over its own copy of this
checkout's bank, `--repeat` times in alternating order (so that neither always runs on a cooler
or warmer machine). "No change may make the engine slower" is read here: it prints each kind's
sum over the snippets both engines ran to the same end, and each run's wall time.

    .venv/bin/python scripts/bench_snippets.py --against 111e578 [--repeat 2] [--kind KIND]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from snippet_engine.execution.scheduler import worker_env  # noqa: E402
from snippet_engine.records.record_file import copy_without_records  # noqa: E402
from snippet_engine.source.analysis import KINDS, snippet_kind  # noqa: E402
from snippet_engine.source.discovery import Snippet, discover  # noqa: E402


def kind_of(snippet: Snippet) -> str:
    return snippet_kind(snippet.rel, snippet.path.read_text(encoding="utf-8"))


def copy_bank(dest: Path) -> Path:
    """The bank without its records, so that both ways run every snippet from scratch."""
    copy_without_records(ROOT, dest)
    return dest


def naive(snippets: list[Snippet], root: Path, parallel: int) -> tuple[float, dict[str, float]]:
    """Wall time of one fresh `python` per snippet, `parallel` at a time; each snippet's time."""
    base = worker_env("cpu")
    base.pop("PYTHONPATH", None)

    def one(snippet: Snippet) -> tuple[str, float]:
        with tempfile.TemporaryDirectory() as cwd:
            env = dict(base, TORCHINDUCTOR_CACHE_DIR=str(Path(cwd) / "inductor"),
                       TRITON_CACHE_DIR=str(Path(cwd) / "triton"),
                       PYTHONPATH=os.pathsep.join([str(snippet.path.parent), str(root / "snippets")]))
            started = time.perf_counter()
            subprocess.run([sys.executable, str(snippet.path)], cwd=cwd, env=env, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return snippet.rel, time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(parallel) as pool:
        times = dict(pool.map(one, snippets))
    return time.perf_counter() - started, times


def engine_run(root: Path, jobs: int, fresh: bool = False, only: list[Snippet] | None = None,
               scripts: Path = ROOT / "scripts") -> tuple[float, list[dict]]:
    """Wall time of a forced run of the engine in `scripts` (of `only`, when given; else of the
    whole bank), and its report's entry for each snippet."""
    report = root / "bench-report.json"
    report.unlink(missing_ok=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, str(scripts / "snippets.py"), "--root", str(root),
                    "run", "--force", "--jobs", str(jobs), "--progress", "never",
                    "--report", str(report), *(["--fresh"] if fresh else []),
                    *([str(s.path) for s in only] if only is not None else [])],
                   check=False, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    return wall, json.loads(report.read_text())["snippets"]


def engine(root: Path, jobs: int, fresh: bool = False,
           only: list[Snippet] | None = None) -> tuple[float, dict[str, float]]:
    """Wall time of a forced run of this checkout's engine, and each snippet's time."""
    wall, runs = engine_run(root, jobs, fresh, only)
    return wall, {s["path"]: s["seconds"] for s in runs}


def against(ref: str, jobs: int, repeat: int, kind: str | None) -> None:
    """Print the engine of `ref` against this checkout's, over this checkout's bank."""
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                        str(other), ref], check=True)
        try:
            engines = {ref: other / "scripts", "this checkout": ROOT / "scripts"}
            walls: dict[str, list[float]] = {name: [] for name in engines}
            outcomes: dict[str, dict[str, tuple[str, float]]] = {name: {} for name in engines}
            order = list(engines)
            for round_ in range(repeat):
                for name in (order if round_ % 2 == 0 else order[::-1]):
                    root = copy_bank(Path(tmp) / f"bank-{round_}-{order.index(name)}")
                    snippets = discover(root)
                    kinds = {s.rel: kind_of(s) for s in snippets}
                    only = [s for s in snippets if kinds[s.rel] == kind] if kind else None
                    wall, runs = engine_run(root, jobs, only=only, scripts=engines[name])
                    walls[name].append(wall)
                    for entry in runs:  # a snippet's best time over the rounds
                        seen = outcomes[name].get(entry["path"])
                        if seen is None or entry["seconds"] < seen[1]:
                            outcomes[name][entry["path"]] = (entry.get("status", "?"),
                                                             entry["seconds"])
                    print(f"round {round_ + 1}, {name}: {wall:.1f} s, {len(runs)} snippets",
                          flush=True)
            first, second = order
            same = [rel for rel, (status, _) in outcomes[first].items()
                    if outcomes[second].get(rel, ("", 0.0))[0] == status]
            differ = sorted((set(outcomes[first]) | set(outcomes[second])) - set(same))
            print(f"\n{len(same)} snippets ended the same way under both engines; "
                  f"{len(differ)} did not{': ' + ', '.join(differ[:8]) if differ else ''}")
            print(f"\n{'kind':<11}{'snippets':>9}{first[:14]:>16}{second[:14]:>16}{'ratio':>8}"
                  "   (sum of each snippet's best time)")
            for each in KINDS:
                rels = [rel for rel in same if kinds.get(rel) == each]
                if rels:
                    a = sum(outcomes[first][rel][1] for rel in rels)
                    b = sum(outcomes[second][rel][1] for rel in rels)
                    print(f"{each:<11}{len(rels):>9}{a:>14.1f} s{b:>14.1f} s{b / a:>7.2f}x")
            print("\nwall time of each run: " + "; ".join(
                f"{name}: {', '.join(f'{w:.1f} s' for w in walls[name])}" for name in engines))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)],
                           check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-fresh", action="store_true", help="skip the `run --fresh` figure")
    parser.add_argument("--times", type=Path, help="also write each snippet's seconds, both ways, "
                                                   "as JSON here")
    parser.add_argument("--kind", choices=KINDS, help="bench only the snippets of this kind")
    parser.add_argument("--against", metavar="REF", help="compare the engine of this git ref with "
                                                          "this checkout's (no naive run)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each engine with --against")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.jobs, args.repeat, args.kind)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_bank(Path(tmp))
        snippets = discover(root)
        kinds = {s.rel: kind_of(s) for s in snippets}
        only = None
        if args.kind:
            only = snippets = [s for s in snippets if kinds[s.rel] == args.kind]
            kinds = {s.rel: args.kind for s in snippets}
        counts = {k: sum(1 for v in kinds.values() if v == k) for k in KINDS}
        print(f"bank: {len(snippets)} snippets ({', '.join(f'{n} {k}' for k, n in counts.items())}),"
              f" {os.cpu_count()} cores; naive runs {args.jobs} at a time, the engine --jobs {args.jobs}")
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        base_wall, base_times = naive(snippets, root, args.jobs)
        warm_wall, warm_times = engine(root, args.jobs, only=only)
        print(f"\n{'kind':<10}{'snippets':>9}{'naive, sum':>14}{'engine, sum':>14}{'ratio':>8}")
        for kind in KINDS:
            rels = [rel for rel, k in kinds.items() if k == kind]
            if not rels:
                continue
            b = sum(base_times[r] for r in rels)
            e = sum(warm_times[r] for r in rels)
            print(f"{kind:<10}{len(rels):>9}{b:>12.1f} s{e:>12.1f} s{b / e:>7.1f}x")
        if args.times:
            args.times.write_text(json.dumps({"naive": base_times, "engine": warm_times,
                                              "kinds": kinds}, indent=1) + "\n")
        longest = max(warm_times.items(), key=lambda item: item[1])
        print(f"\n{args.kind + ' snippets' if args.kind else 'whole bank'}, wall time")
        print(f"  naive (fresh python per snippet)   : {base_wall:8.1f} s")
        print(f"  engine, warm workers               : {warm_wall:8.1f} s")
        print(f"  longest single snippet (the bound) : {longest[1]:8.1f} s ({longest[0]})")
        print(f"  sum of engine snippet times / jobs : {sum(warm_times.values()) / args.jobs:8.1f} s")
        if not args.skip_fresh:
            fresh_wall, _ = engine(root, args.jobs, fresh=True, only=only)
            print(f"  engine, --fresh                    : {fresh_wall:8.1f} s")
        idle_started = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "scripts" / "snippets.py"), "--root",
                        str(root), "run", *([str(s.path) for s in only] if only is not None else [])],
                       check=False, stderr=subprocess.DEVNULL)
        print(f"  engine, nothing to do (all cached) : {time.perf_counter() - idle_started:8.2f} s")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        goal = {"aoti": " (goal: at least 2x)", None: " (goal: at least 5x)"}.get(args.kind, "")
        print(f"speed-up of the engine over naive, {args.kind or 'whole bank'}: "
              f"{base_wall / warm_wall:.1f}x{goal}")


if __name__ == "__main__":
    main()
