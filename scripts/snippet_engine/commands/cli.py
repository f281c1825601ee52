"""Command line of the snippet engine: `run`, `check`, `verify-changed`, `drift` and `summary`
(see CONTRIBUTING.md)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from snippet_engine.commands import drift
from snippet_engine.commands.summary import summarize
from snippet_engine.commands.verify import Verdict, verify, verify_paths
from snippet_engine.errors import ProjectError
from snippet_engine.execution.progress import Progress
from snippet_engine.execution.runner import execute, plan, select, summarize_failures
from snippet_engine.execution.sharding import parse_shard
from snippet_engine.protocol import GOOD
from snippet_engine.records.check import Problem, fails, find_problems
from snippet_engine.records.environment import detect
from snippet_engine.snippet_env import CPU_CAPABILITIES, second_capability

DEFAULT_ROOT = Path(__file__).resolve().parents[3]  # scripts/snippet_engine/commands/cli.py -> the checkout


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="snippets.py", description="Run every snippet on the pinned torch and record its output.")
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT,
                        help="repository root (default: this checkout)")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="execute snippets whose record is missing or stale")
    run.add_argument("paths", nargs="*", metavar="PATH", help="snippet files or folders")
    run.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    run.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    run.add_argument("--force", action="store_true", help="re-run even when the record is current")
    run.add_argument("--report", type=Path, help="write a JSON report of every snippet here")
    run.add_argument("--shard", help="run only shard K of N (K/N), split by recorded duration")
    run.add_argument("--fresh", action="store_true",
                     help="start a fresh python for every snippet instead of forking a warm worker "
                          "(slower; the records must come out the same)")
    run.add_argument("--progress", choices=("auto", "always", "never"), default="auto")
    run.add_argument("--list", action="store_true",
                     help="print the selected snippets (after --shard) and run nothing: "
                          "shows a CI shard's split on any machine, even one without that device")
    drift = sub.add_parser(
        "drift", help="run every CPU snippet on another torch (in a scratch copy) and report "
                      "what changes against the committed records")
    which = drift.add_mutually_exclusive_group(required=True)
    which.add_argument("--python", help="the interpreter of another venv with another torch")
    which.add_argument("--torch", metavar="VERSION",
                       help="create .cache/drift-venvs/torch-VERSION from the project's pins "
                            "with only torch changed, and use it")
    drift.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    drift.add_argument("--progress", choices=("auto", "always", "never"), default="auto")
    drift.add_argument("--changed", action="store_true",
                       help="run only the snippets the previous report of that torch does not "
                            "hold at their current key (added or changed since); keep the rest")
    drift.add_argument("--report-dir", type=Path,
                       help="where the report goes (default: reports/drift/ in the checkout)")
    check = sub.add_parser("check", help="execute nothing; fail on missing or stale records")
    check.add_argument("--device", choices=("cpu", "cuda", "all"), default=None,
                       help="also fail on this device's problems (CPU problems always fail)")
    changed = sub.add_parser(
        "verify-changed", help="re-run every snippet whose record differs from a git ref (the "
                               "submission's base) and fail unless each prints what its record says")
    changed.add_argument("--since", required=True, metavar="REF",
                         help="the commit the submission started from (origin/main, a sha)")
    changed.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                         help="the device to re-run on; other devices' records are only listed")
    changed.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    changed.add_argument("--progress", choices=("auto", "always", "never"), default="auto")
    _capability_option(changed)
    again = sub.add_parser(
        "verify", help="re-run snippets (every one by default) in a scratch copy, record nothing, "
                       "and fail unless each prints what its committed record says; with "
                       "--cpu-capability, as another machine's CPU would run them")
    again.add_argument("paths", nargs="*", metavar="PATH", help="snippet files or folders")
    again.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    again.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    again.add_argument("--fresh", action="store_true",
                       help="start a fresh python for every snippet instead of forking a warm "
                            "worker")
    again.add_argument("--report", type=Path,
                       help="write a JSON report of every snippet run here (as `run` writes)")
    again.add_argument("--progress", choices=("auto", "always", "never"), default="auto")
    _capability_option(again)
    summary = sub.add_parser(
        "summary", help="execute nothing; say in Markdown what a sharded run recorded, what "
                        "failed and what is still missing (exit 1 unless everything is current)")
    summary.add_argument("--device", choices=("cpu", "cuda"), default="cuda")
    summary.add_argument("--shards", type=int, default=0,
                         help="how many shards ran (N); 0, the default: no run, only what the "
                              "records say (what is missing, the device-only snippets)")
    summary.add_argument("--reports", type=Path, default=Path("."),
                         help="the folder holding each shard's report, DEVICE-shard-K.json")
    summary.add_argument("--output", type=Path, help="write the Markdown here (default: stdout)")
    return parser


def _capability_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cpu-capability", choices=(*CPU_CAPABILITIES, "second"), default=None,
        help="run under this CPU capability instead of the host's (torch's ATEN_CPU_CAPABILITY, "
             "MKL's and oneDNN's instruction sets); 'second': avx2 on an AVX-512 host, else "
             "the host's own (an AVX2 host is the other machine of AVX-512 records). A record "
             "must not depend on the CPU that made it")


def _capability(args: argparse.Namespace) -> str | None:
    name: str | None = args.cpu_capability
    return second_capability() if name == "second" else name


def _print_verdicts(verdicts: list[Verdict]) -> None:
    for verdict in verdicts:
        print(f"FAIL {verdict.record}: {verdict.problem}" if verdict.problem
              else f"ok   {verdict.record}")


def cmd_summary(args: argparse.Namespace) -> int:
    result = summarize(args.root.resolve(), args.device, args.shards, args.reports)
    text = result.markdown()
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0 if result.complete else 1


def cmd_run(args: argparse.Namespace) -> int:
    root = args.root.resolve()
    started = time.monotonic()
    if args.jobs < 1:
        print("--jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        shard = parse_shard(args.shard) if args.shard else None
    except ValueError as exc:  # parse_shard's own: the value is not K/N
        print(f"snippets.py: {exc}", file=sys.stderr)
        return 2
    try:
        snippets = select(root, args.paths, args.device, shard)
        if args.list:
            print("".join(f"{snippet.rel}\n" for snippet in snippets), end="")
            return 0
        env = detect(args.device)
        jobs, cached = plan(root, snippets, env, args.force, args.fresh)
    except (ProjectError, FileNotFoundError) as exc:  # a bad option line or record, no device
        print(f"snippets.py: {exc}", file=sys.stderr)
        return 2
    enabled = {"auto": None, "always": True, "never": False}[args.progress]
    progress = Progress(len(jobs), enabled=enabled)
    if progress.enabled and jobs:
        print(f"{len(cached)} cached, running {len(jobs)} on {env.device} with "
              f"{min(args.jobs, len(jobs))} worker(s)", file=sys.stderr)
    try:
        ran = execute(root, jobs, env, args.jobs, progress)
    except KeyboardInterrupt as exc:
        print("\ninterrupted: finished snippets kept their records; nothing was half-written",
              file=sys.stderr)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    outcomes = sorted(cached + ran, key=lambda o: o.path)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps({"snippets": [o.as_report() for o in outcomes]},
                                          indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    changed = sum(o.record_changed for o in ran)
    failures = summarize_failures(ran, root)
    print(f"{len(outcomes)} snippet(s) on {env.device}: {len(cached)} cached, {len(ran)} ran, "
          f"{changed} record(s) changed, {sum(o.status not in GOOD for o in ran)} failed "
          f"({time.monotonic() - started:.1f}s)", file=sys.stderr)
    if failures:
        print(failures, file=sys.stderr)
        return 1
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    root = args.root.resolve()
    problems = find_problems(root)
    failing = [p for p in problems if fails(p, args.device)]
    listed = [p for p in problems if not fails(p, args.device)]
    for problem in failing:
        print(f"FAIL {problem}")
    if listed:
        print(notes_summary(listed))
    if failing:
        records = [p for p in failing if not p.path.startswith(f"{drift.REPORT_DIR}/")]
        print(f"\n{len(failing)} problem(s)." + (
            " Re-run: python scripts/snippets.py run "
            + ("--device cuda " if any(p.device == "cuda" for p in records) else "")
            + "(then commit the records)" if records else " The drift report's line says how to "
            "bring it up to date"))
        return 1
    print("records are current")
    return 0


def notes_summary(listed: list[Problem]) -> str:
    """One line for what is only a note: how many records of each device are missing or stale."""
    by_device: dict[str, Counter[str]] = {}
    for problem in listed:
        by_device.setdefault(problem.device, Counter())[problem.what.split(":", 1)[0]] += 1
    parts = []
    for device, counts in sorted(by_device.items()):
        states = ", ".join(f"{count} {state}" for state, count in sorted(counts.items()))
        parts.append(f"{device}: {states}")
    devices = " ".join(sorted(by_device))
    return (f"note (does not fail here): {'; '.join(parts)} record(s). "
            f"List them with: python scripts/snippets.py check --device {devices}")


def cmd_verify_changed(args: argparse.Namespace) -> int:
    root = args.root.resolve()
    try:
        env = detect(args.device)
        enabled = {"auto": None, "always": True, "never": False}[args.progress]
        verdicts, others = verify(root, args.since, env, max(args.jobs, 1), enabled,
                                  _capability(args))
    except (ProjectError, FileNotFoundError) as exc:
        print(f"snippets.py verify-changed: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print("\ninterrupted: nothing was verified, and no committed record was touched",
              file=sys.stderr)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    bad = [v for v in verdicts if v.problem]
    _print_verdicts(verdicts)
    if others:
        print(f"not re-run here (another device): {', '.join(others)}")
    print(f"{len(verdicts)} {env.device} record(s) changed since {args.since}: "
          + (f"{len(bad)} not what their snippet prints. Re-run them (python scripts/snippets.py "
             "run PATH) and commit what the run writes; never edit a record by hand"
             if bad else "each prints what its record says"))
    return 1 if bad else 0


def cmd_verify(args: argparse.Namespace) -> int:
    root = args.root.resolve()
    capability = _capability(args)
    try:
        env = detect(args.device)
        enabled = {"auto": None, "always": True, "never": False}[args.progress]
        verdicts, outcomes = verify_paths(root, args.paths, env, max(args.jobs, 1), enabled,
                                          capability, args.fresh)
    except (ProjectError, FileNotFoundError) as exc:
        print(f"snippets.py verify: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print("\ninterrupted: nothing was verified, and no committed record was touched",
              file=sys.stderr)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps({"snippets": [o.as_report() for o in outcomes]},
                                          indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    bad = [v for v in verdicts if v.problem]
    _print_verdicts(verdicts)
    under = f" under CPU capability {capability}" if capability else ""
    print(f"{len(verdicts)} {env.device} record(s) re-run{under}: "
          + (f"{len(bad)} not what their snippet prints. A record must say what the snippet "
             "prints on any machine: print less precision where the CPU decides the last "
             "digits (say why in the snippet), then re-run it (python scripts/snippets.py run "
             "PATH)" if bad else "each prints what its record says"))
    return 1 if bad else 0


def cmd_drift(args: argparse.Namespace) -> int:
    root = args.root.resolve()
    try:
        python = args.python or drift.venv_for(root, args.torch)
        enabled = {"auto": None, "always": True, "never": False}[args.progress]
        path, report = drift.run(root, python, args.jobs, enabled, args.report_dir,
                                 changed_only=args.changed)
    except ProjectError as exc:  # no such torch or interpreter, a bad option line or record
        print(f"snippets.py drift: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print("\ninterrupted: no report was written (an earlier one is as it was), and no "
              "committed record was touched", file=sys.stderr)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    counts = ", ".join(f"{n} {klass}" for klass, n in report["counts"].items())
    kept = f" ({report['ran']} ran, {report['kept']} kept from the previous report)" \
        if args.changed else ""
    print(f"torch {report['compared']['torch']} against the pinned {report['pinned']['torch']}: "
          f"{counts}{kept}\nreport: {path.relative_to(root) if path.is_relative_to(root) else path} "
          f"and {path.with_suffix('.md').name}", file=sys.stderr)
    return 0


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: the workers are stopped, their snippets' processes killed
    and their temporary folders removed, before the run exits with 128 + the signal."""

    signum = signal.SIGTERM


class HungUp(KeyboardInterrupt):
    """SIGHUP (the terminal the run was started from was closed), handled as Ctrl-C is: the
    workers run in sessions of their own, so the coordinator is the only one to get it, and
    without a handler it would die at once and leave them running."""

    signum = signal.SIGHUP


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated


def _on_sighup(signum: int, frame: object) -> None:
    raise HungUp


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    commands = {"run": cmd_run, "check": cmd_check, "drift": cmd_drift, "summary": cmd_summary,
                "verify-changed": cmd_verify_changed, "verify": cmd_verify}
    if threading.current_thread() is not threading.main_thread():
        return commands[args.command](args)  # only the main thread can handle a signal
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    previous_hup = signal.signal(signal.SIGHUP, _on_sighup)
    try:
        return commands[args.command](args)
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGHUP, previous_hup)
