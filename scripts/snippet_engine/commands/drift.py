"""Drift: run every CPU snippet on another torch and say, per snippet, what changes.

The snippets run in the other interpreter through the same engine as `run` (isolation,
normalisation, timeouts, warm workers), in a scratch copy of snippets/ under .cache/drift/, so no
committed record is ever written or marked. Each outcome is compared with the committed record:

- unchanged: same outcome, same normalised output;
- output changed: same outcome (ok, or the same expected error), other output;
- now fails: the committed record is good, the other torch fails (an unexpected exception, a
  crash, a timeout);
- now runs: the committed record is an expected error, and the other torch runs the snippet
  without raising it;
- outcome changed: any other change (another exception than the expected one, for one).

The report is written only once every snippet has run, atomically: an interrupted run leaves the
previous report as it was, never a torn one.

`changed_only` (`drift --changed`) runs only what the previous report of the same torch, Python,
hardware and engine cannot speak for: snippets added since, or whose committed record moved to
another key. The entries it can speak for are kept as they were (their pages looked up again), so
a contributor who adds a page brings the report up to date in the time its own snippets take,
not the bank's half hour. Moving the pin, or any doubt, is a full run.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from snippet_engine import ENGINE_VERSION
from snippet_engine.errors import ProjectError
from snippet_engine.execution.progress import Progress
from snippet_engine.execution.runner import Outcome, execute, plan, select
from snippet_engine.execution.scheduler import WorkerPool
from snippet_engine.protocol import EXPECT_MISSING, GOOD
from snippet_engine.records.drift_coverage import REPORT_DIR, cpu_keys
from snippet_engine.records.environment import Environment, describe_interpreter
from snippet_engine.records.record_file import Record, copy_without_records, read_record, write_atomic
from snippet_engine.source.discovery import Snippet

CLASSES = ("unchanged", "output changed", "now fails", "now runs", "outcome changed")
SCHEMA = 1


class DriftError(ProjectError, RuntimeError):
    """A drift run that cannot start (an interpreter or torch that is not there)."""


@dataclass(frozen=True)
class Change:
    snippet: str
    klass: str
    committed: str  # the committed outcome, e.g. "ok" or "expected-error RuntimeError"
    now: str  # the outcome on the other torch
    message: str  # the engine's message for a failure
    diff: str  # unified diff of the normalised outputs, committed first
    only_torch_lines: bool = False  # the outputs differ only in torch's own line numbers
    key: str = ""  # the committed record's key: which version of the snippet was compared
    # What it printed on the other torch (normalised), kept for every entry that did not stay
    # unchanged: the pages' ties are checked against it (a sentence whose fragment is gone).
    now_output: str = ""


def _outcome_label(status: str, error_type: str = "") -> str:
    return f"{status} {error_type}".strip()


def classify(committed: Record, now: Outcome, now_error: str) -> str:
    if now.status in GOOD:
        if now.status == committed.status and now_error == committed.error_type:
            return "unchanged" if now.output == committed.output else "output changed"
        return "outcome changed"
    if committed.status == "expected-error" and EXPECT_MISSING in now.message:
        return "now runs"
    if committed.status == "expected-error" and now.status == "failed" and now_error:
        return "outcome changed"  # another exception than the expected one
    return "now fails"


_TORCH_LINE = re.compile(r"((?:<site-packages>/)?torch/[\w/.]+\.py)(:|\", line )\d+")


def only_torch_lines(old: str, new: str) -> bool:
    """Whether two outputs differ only in the line numbers of torch's own files (log-line
    prefixes, traceback frames): a moved line in torch, not a change a reader would see."""
    def mask(text: str) -> str:
        return _TORCH_LINE.sub(r"\1\2<line>", text)

    return old != new and mask(old) == mask(new)


def _diff(old: str, new: str, snippet: str) -> str:
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=f"{snippet} (pinned torch)",
                                 tofile=f"{snippet} (compared torch)")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def pages_showing(root: Path) -> dict[str, list[str]]:
    """For each snippet, the docs pages whose source names it (`snippet("topic/name.py")`)."""
    found: dict[str, list[str]] = {}
    for page in sorted((root / "docs").rglob("*.md")):
        for ref in re.findall(r'snippet\(\s*"([^"]+)"\s*\)', page.read_text(encoding="utf-8")):
            uri = page.relative_to(root / "docs").as_posix()
            found.setdefault(f"snippets/{ref}", [])
            if uri not in found[f"snippets/{ref}"]:
                found[f"snippets/{ref}"].append(uri)
    return found


def _scratch_copy(root: Path, version: str) -> Path:
    scratch = root / ".cache" / "drift" / f"torch-{version}"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    copy_without_records(root, scratch)
    return scratch


def _records_of(root: Path, entries: dict[str, dict]) -> list[Record]:
    """The committed CPU records of the snippets that `entries` name (those that can be read)."""
    records = (read_record(Snippet(root / rel, rel).record_path("cpu")) for rel in sorted(entries))
    return [record for record in records if record is not None]


def _pinned_provenance(records: list[Record]) -> dict[str, str]:
    first = records[0] if records else None
    return {"torch": first.torch if first else "", "python": first.python if first else "",
            "hardware": first.hardware if first else "", "engine": first.engine if first else ""}


def run(root: Path, python: str, jobs: int, progress_enabled: bool | None = None,
        report_dir: Path | None = None, changed_only: bool = False) -> tuple[Path, dict]:
    """Run the bank on `python` (with `changed_only`, only what the previous report cannot speak
    for), compare, write the report; (report path, report)."""
    env = describe_interpreter(python)
    out_dir = report_dir or root / REPORT_DIR
    path = out_dir / f"torch-{env.torch_version.split('+')[0]}.json"
    kept = reusable(root, path, env) if changed_only else {}
    scratch = _scratch_copy(root, env.torch_version)
    snippets = [s for s in select(scratch, None, "cpu", None) if s.rel not in kept]
    jobs_to_run, _ = plan(scratch, snippets, env, force=True)
    progress = Progress(len(jobs_to_run), enabled=progress_enabled)
    if progress.enabled:
        print(f"drift: running {len(jobs_to_run)} snippets on torch {env.torch_version} "
              f"({python}) with {min(jobs, len(jobs_to_run)) or 1} worker(s)"
              + (f"; {len(kept)} kept from {path.name}" if kept else ""), file=sys.stderr)
    outcomes: list[Outcome] = []
    if jobs_to_run:
        pool = WorkerPool("cpu", jobs, python)
        try:
            outcomes = execute(scratch, jobs_to_run, env, jobs, progress, pool=pool,
                               mark_failures=False)
        finally:
            pool.close()
    report = compare(root, env, outcomes, kept)
    write_atomic(path, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    write_atomic(path.with_suffix(".md"), summary(report))
    return path, report


def reusable(root: Path, path: Path, env: Environment) -> dict[str, dict]:
    """The entries of the report at `path` that still stand, by snippet: the report compared the
    same torch, Python and hardware with this engine, and the snippet's committed record is
    current and is the one the entry was compared with. Nothing when there is no such report."""
    try:
        previous = json.loads(path.read_text(encoding="utf-8"))
        compared, entries = previous["compared"], previous["snippets"]
        same = (previous.get("engine") == ENGINE_VERSION and compared.get("torch") == env.torch_version
                and compared.get("python") == env.python_version
                and compared.get("hardware") == env.hardware)
    except (OSError, ValueError, KeyError, TypeError):
        return {}  # no report, or one this engine cannot read: everything runs
    if not same:
        return {}
    keys = cpu_keys(root)
    kept = {}
    for entry in entries:
        snippet = entry.get("snippet")
        if not snippet or not entry.get("key") or keys.get(snippet) != entry["key"]:
            continue
        if entry.get("class") != "unchanged" and "now_output" not in entry:
            continue  # compared before reports kept the new output: the pages' ties need it
        committed = read_record(Snippet(root / snippet, snippet).record_path("cpu"))
        if committed is not None and committed.key == entry["key"] and not committed.is_stale:
            kept[snippet] = entry
    return kept


def compare(root: Path, env: Environment, outcomes: list[Outcome],
            kept: dict[str, dict] | None = None) -> dict:
    """The report: each outcome on the other torch against the committed record at `root`, and
    the `kept` entries of the previous report (`reusable`) as they were."""
    pages = pages_showing(root)
    committed_records = []
    changes = []
    for outcome in sorted(outcomes, key=lambda o: o.path):
        committed = read_record(outcome.record_path(root))
        if committed is None:
            continue  # `check` reports a missing record; drift compares only what is recorded
        committed_records.append(committed)
        now_error = outcome.error_type
        klass = classify(committed, outcome, now_error)
        changes.append(Change(
            snippet=outcome.path, klass=klass,
            committed=_outcome_label(committed.status, committed.error_type),
            now=_outcome_label(outcome.status, now_error), message=outcome.message,
            diff="" if klass == "unchanged" else _diff(committed.output, outcome.output, outcome.path),
            only_torch_lines=klass == "output changed" and only_torch_lines(committed.output,
                                                                            outcome.output),
            key=committed.key, now_output="" if klass == "unchanged" else outcome.output))
    entries: list[dict] = [{"snippet": c.snippet, "key": c.key, "class": c.klass,
                "pages": pages.get(c.snippet, []),
                "committed": c.committed, "now": c.now, "message": c.message,
                "only_torch_lines": c.only_torch_lines, "diff": c.diff,
                **({"now_output": c.now_output} if c.klass != "unchanged" else {})}
               for c in changes]
    entries += [{**entry, "pages": pages.get(snippet, [])} for snippet, entry in (kept or {}).items()]
    entries.sort(key=lambda entry: str(entry["snippet"]))
    counts = {klass: sum(e["class"] == klass for e in entries) for klass in CLASSES}
    return {
        "schema": SCHEMA,
        "generated": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "engine": ENGINE_VERSION,
        # When every entry was kept (nothing changed since the last report), the provenance
        # comes from the kept entries' records: it is the same pinned torch either way.
        "pinned": _pinned_provenance(committed_records or _records_of(root, kept or {})),
        "compared": {"torch": env.torch_version, "python": env.python_version,
                     "hardware": env.hardware},
        "counts": counts,
        # Of the entries, how many ran now and how many were kept from the previous report.
        "ran": len(changes), "kept": len(kept or {}),
        # "key": the committed record's, compared with here (`drift_coverage` checks it is current).
        "snippets": entries,
    }


def summary(report: dict) -> str:
    """The report as Markdown a maintainer reads: counts, then per page what changed."""
    pinned, compared = report["pinned"], report["compared"]
    lines = [f"# Drift: torch {pinned['torch']} (pinned) against torch {compared['torch']}", "",
             f"Generated {report['generated']} by the snippet engine (version {report['engine']}); "
             f"Python {compared['python']}, {compared['hardware']}. Every CPU snippet ran on the "
             "compared torch; its outcome and normalised output were compared with the committed "
             "record."
             + (f" {report['kept']} of the entries were kept from the previous report of this "
                "torch: their snippets and records had not changed since it ran them."
                if report.get("kept") else ""), "", "| class | snippets |", "|---|---|"]
    lines += [f"| {klass} | {count} |" for klass, count in report["counts"].items()]
    by_page: dict[str, list[dict]] = {}
    for item in report["snippets"]:
        if item["class"] != "unchanged":
            for page in item["pages"] or ["(no page)"]:
                by_page.setdefault(page, []).append(item)
    lines += ["", "## What changed, page by page", ""]
    if not by_page:
        lines.append("Nothing: every snippet prints what its committed record says.")
    for page, items in sorted(by_page.items()):
        lines += [f"### {page}", ""]
        for item in items:
            note = " (only torch's own line numbers moved)" if item.get("only_torch_lines") else ""
            lines += [f"- `{item['snippet']}`: **{item['class']}**{note} ({item['committed']} -> "
                      f"{item['now']})" + (f": {item['message']}" if item["message"] else ""), ""]
            if item["diff"]:
                lines += ["  ```diff", *("  " + line for line in item["diff"].splitlines()),
                          "  ```", ""]
    return "\n".join(lines).rstrip() + "\n"


def venv_for(root: Path, version: str) -> str:
    """The interpreter of .cache/drift-venvs/torch-VERSION, with the project's own pins
    (requirements.txt, constraints.txt) but torch at VERSION, and whatever pip must move with it
    unpinned. Raises DriftError, saying why, when that torch cannot be installed here."""
    for pins in ("requirements.txt", "constraints.txt"):
        if not (root / pins).is_file():
            raise DriftError(f"{root / pins} is missing: the drift venv is made from the "
                             "project's own pins")
    venv = root / ".cache" / "drift-venvs" / f"torch-{version}"
    python = venv / "bin" / "python"
    fresh = not python.exists()
    if fresh:
        venv.parent.mkdir(parents=True, exist_ok=True)
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
    requirements = re.sub(r"^torch==\S+", f"torch=={version}",
                          (root / "requirements.txt").read_text(encoding="utf-8"), flags=re.MULTILINE)
    constraints = [line for line in (root / "constraints.txt").read_text(encoding="utf-8").splitlines()
                   if not re.match(r"^torch\b", line.strip())]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "requirements.txt").write_text(requirements, encoding="utf-8")
        (Path(tmp) / "constraints.txt").write_text("\n".join(constraints) + "\n", encoding="utf-8")
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "-r", str(Path(tmp) / "requirements.txt"),
             "-c", str(Path(tmp) / "constraints.txt")], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if fresh:
            shutil.rmtree(venv, ignore_errors=True)
        raise DriftError(
            f"torch {version} cannot be installed here, so nothing was compared. pip said:\n"
            + "\n".join(done.stderr.strip().splitlines()[-12:])
            + "\nGive an installed interpreter with --python PATH instead.")
    installed = describe_interpreter(str(python)).torch_version.split("+")[0]
    if installed != version:
        raise DriftError(f"{venv} has torch {installed}, not {version}; delete it and run again")
    return str(python)
