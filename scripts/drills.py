#!/usr/bin/env python3
"""Coding drills from the command line: list them, judge a solution, write a reader's download.

    python scripts/drills.py list                 # one drill id a line
    python scripts/drills.py judge ID FILE        # the verdict on FILE; exit 0 only if every test passes
    python scripts/drills.py bundle ID [-o DIR]   # write drill_<ID>.py, starter and judge in one file
    python scripts/drills.py snippets ID          # (re)write the drill's judge_*.py snippets

A drill is `snippets/drills/<ID>/` (see CONTRIBUTING.md). `judge` runs the drill's own judge on
the file in this process, as the download does; the engine records the judge's verdicts on the
drill's starter, reference and mistakes (`scripts/snippets.py run snippets/drills/<ID>`), and
`check_pages.py` refuses a drill whose records do not prove its judge.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from question_pages.drills.bank import Drill, DrillError, load_bank, verdict_source  # noqa: E402
from question_pages.drills.bundle import bundle  # noqa: E402


def find(drills: list[Drill], drill_id: str) -> Drill:
    for drill in drills:
        if drill.id == drill_id:
            return drill
    known = ", ".join(d.id for d in drills)
    raise SystemExit(f"drills.py: no drill '{drill_id}'. The drills are: {known}")


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def judge(drill: Drill, solution: Path) -> int:
    """Print the verdict on `solution`; 0 when every test passes, 1 when not, 2 when the file
    cannot be loaded."""
    if not solution.is_file():
        print(f"drills.py: {solution}: no such file", file=sys.stderr)
        return 2
    sys.path[:0] = [str(drill.folder), str(ROOT / "snippets")]
    framework = _module("_drill", ROOT / "snippets" / "_drill.py")
    tests = _module("_judge", drill.judge).TESTS
    try:
        module = framework.load_solution(solution.resolve())
    except Exception as exc:  # the reader's file does not even import: say where
        print(f"drills.py: {solution} could not be loaded: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return 0 if tests.report(module).passed else 1


def write_snippets(drill: Drill) -> list[Path]:
    """The judge_<role>.py snippets, one per solution file; returns those it changed."""
    changed = []
    for role, _ in drill.solutions():
        path = drill.verdict_snippet(role)
        if not path.is_file() or path.read_text(encoding="utf-8") != verdict_source(role):
            path.write_text(verdict_source(role), encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="one drill id a line")
    judged = sub.add_parser("judge", help="judge a solution file")
    judged.add_argument("id")
    judged.add_argument("file", type=Path)
    bundled = sub.add_parser("bundle", help="write drill_<id>.py")
    bundled.add_argument("id")
    bundled.add_argument("-o", "--out", type=Path, default=Path.cwd())
    snippets = sub.add_parser("snippets", help="write the drill's judge_*.py snippets")
    snippets.add_argument("id")
    args = parser.parse_args(argv)
    try:
        drills = load_bank(ROOT)
    except DrillError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "list":
        print("\n".join(d.id for d in drills))
        return 0
    drill = find(drills, args.id)
    if args.command == "judge":
        return judge(drill, args.file)
    if args.command == "bundle":
        args.out.mkdir(parents=True, exist_ok=True)
        target = args.out / f"drill_{drill.id}.py"
        target.write_text(bundle(drill, ROOT), encoding="utf-8")
        print(target)
        return 0
    for path in write_snippets(drill):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
