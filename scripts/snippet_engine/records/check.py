"""`check`: executes nothing; finds records that are missing, stale, damaged or orphaned.

CPU records are the site's contract, so any CPU problem fails. CUDA records come from GPU runners
that not every contributor has, so their problems are listed, and fail only with --device cuda.
"""

from __future__ import annotations

import platform
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from snippet_engine import ENGINE_VERSION
from snippet_engine.records.cachekey import compute_key, snippet_packages
from snippet_engine.records.drift_coverage import uncovered
from snippet_engine.records.environment import Environment, torch_version
from snippet_engine.records.packages import describe_changes
from snippet_engine.records.pins import release
from snippet_engine.records.record_file import Record, RecordError, misplaced, read_record
from snippet_engine.source.discovery import Snippet, all_records, discover, snippet_for_record
from snippet_engine.source.options import SnippetOptionError, parse_options

RecordState = Literal["current", "missing", "stale", "damaged"]


@dataclass(frozen=True)
class Problem:
    device: str
    path: str
    what: str

    def __str__(self) -> str:
        return f"{self.path} [{self.device}]: {self.what}"


def record_state(snippet_path: Path, root: Path, device: str,
                 keys: dict[str, str] | None = None) -> tuple[RecordState, str]:
    """('current'|'missing'|'stale'|'damaged', explanation) for one snippet on one device.
    `keys`: the snippets' current keys on `device` by path, filled in as they are computed, for
    a caller that needs them again (`find_problems`, for the drift reports)."""
    snippet = Snippet(snippet_path, snippet_path.relative_to(root).as_posix())
    env = Environment(device=device, torch_version=torch_version(),
                      python_version=platform.python_version(), hardware="")
    try:
        record = read_record(snippet.record_path(device))
    except RecordError as exc:
        return "damaged", str(exc)
    if record is None:
        return "missing", "no record yet"
    if record.is_stale:
        return "stale", f"marked stale: {record.stale}"
    elsewhere = misplaced(record, snippet, device)
    if elsewhere:
        return "stale", elsewhere
    key = compute_key(snippet, env, root)[0]
    if keys is not None:
        keys[snippet.rel] = key
    if record.key != key:
        return "stale", why_stale(record, env, snippet_packages(snippet, root))
    return "current", ""


def why_stale(record: Record, env: Environment, packages: dict[str, str]) -> str:
    """What differs between how `record` was made and this checkout, most sweeping first: the
    torch release, the interpreter, the engine, a distribution the snippet uses, its source."""
    if release(record.torch) != env.torch_base:
        return f"recorded with torch {record.torch}, but torch {env.torch_version} is installed"
    recorded_minor = ".".join(record.python.split(".")[:2])
    if recorded_minor != env.python_minor:
        return (f"recorded with Python {record.python}, but this is Python {env.python_version} "
                f"({sys.executable}); records are made with Python {recorded_minor}: use a "
                f"venv made with python{recorded_minor} (scripts/dev.sh setup makes one)")
    if record.engine != ENGINE_VERSION:
        return f"recorded by engine version {record.engine}, this is version {ENGINE_VERSION}"
    changes = describe_changes(record.packages, packages)
    if changes:
        return "recorded with other package versions: " + ", ".join(changes)
    return "the snippet or a helper it imports changed since it was recorded"


def find_problems(root: Path) -> list[Problem]:
    problems: list[Problem] = []
    cpu_keys: dict[str, str] = {}
    snippets = discover(root)
    for snippet in snippets:
        try:
            devices = parse_options(snippet.path).devices
        except SnippetOptionError as exc:
            problems.append(Problem("cpu", snippet.rel, str(exc)))
            continue
        for device in devices:
            state, why = record_state(snippet.path, root, device,
                                      cpu_keys if device == "cpu" else None)
            if state != "current":
                problems.append(Problem(device, snippet.rel, f"{state}: {why}"))
    for record in all_records(root):
        source, device = snippet_for_record(record)
        rel = record.relative_to(root).as_posix()
        if not source.exists():
            problems.append(Problem(device, rel, f"orphan: no snippet {source.name} beside it; "
                                                 "delete the record or restore the snippet"))
            continue
        try:
            declared = parse_options(source).devices
        except SnippetOptionError:
            continue
        if device not in declared:
            problems.append(Problem(device, rel, f"orphan: {source.name} no longer declares "
                                                 f"{device}; delete the record"))
    return problems + drift_problems(root, cpu_keys)


def drift_problems(root: Path, keys: dict[str, str] | None = None) -> list[Problem]:
    """A committed drift report that does not hold every CPU snippet at its current key
    (`drift_coverage`): what it says on the site would stand for snippets it never ran.
    `keys`: CPU keys already computed, by snippet path."""
    return [Problem("cpu", coverage.report, coverage.message())
            for coverage in uncovered(root, keys)]


def fails(problem: Problem, device: str | None) -> bool:
    return problem.device in ("cpu", device) or device == "all"
