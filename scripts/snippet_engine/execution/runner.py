"""Plan a run (what is cached, what must execute), run it, and keep the records consistent.

This is the part with the rules: a snippet re-runs only when its key changed (or `--force`); a good
result that says what the committed record says leaves the file untouched; a bad result never
overwrites a good record but marks it stale; every outcome is reported, none is lost.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from snippet_engine import ENGINE_VERSION
from snippet_engine.execution.progress import Progress
from snippet_engine.execution.scheduler import WorkerPool, run_parallel
from snippet_engine.execution.sharding import assign
from snippet_engine.protocol import GOOD, Reply, Task, WarmKind
from snippet_engine.protocol import Outcome as Status
from snippet_engine.records.cachekey import compute_key, sha256_file
from snippet_engine.records.environment import Environment
from snippet_engine.records.normalize import PathContext, RunWindow, normalize
from snippet_engine.records.packages import package_versions
from snippet_engine.records.record_file import Record, RecordError, mark_stale, misplaced, read_record, store
from snippet_engine.source.analysis import fresh_need, rendezvous_port_default, warm_kind
from snippet_engine.source.discovery import Snippet, discover
from snippet_engine.source.options import parse_options


@dataclass
class Outcome:
    path: str  # the snippet, relative to the repository root
    device: str
    status: Status
    cached: bool
    seconds: float
    output: str
    message: str = ""
    record_changed: bool = False
    key: str = ""  # the cache key of the source that ran
    hint: str = ""  # how to fix a failure, when the engine can tell
    error_type: str = ""  # the exception raised (expected or not), when one was

    def record_path(self, root: Path) -> Path:
        """Where the snippet's record for this device is, in the checkout at `root`."""
        return Snippet(root / self.path, self.path).record_path(self.device)

    def as_report(self) -> dict:
        return {"path": self.path, "device": self.device, "status": self.status,
                "cached": self.cached, "seconds": round(self.seconds, 3), "output": self.output,
                "message": self.message}


@dataclass
class Job:
    snippet: Snippet
    key: str
    helpers: dict[str, str]
    expect: str | None
    timeout: float
    fresh: bool
    previous: Record | None
    warm: WarmKind = "export"  # which warm worker forks it (analysis.warm_kind)
    defer_torch: bool = False  # fresh, and torch imported by the snippet itself
    packages: dict[str, str] = field(default_factory=dict)  # in the key; written to the record
    port_default: str | None = None  # analysis.rendezvous_port_default


def select(root: Path, selectors: list[str] | None, device: str,
           shard: tuple[int, int] | None) -> list[Snippet]:
    """The snippets that declare `device`, restricted to one shard when asked."""
    chosen = [s for s in discover(root, selectors) if device in parse_options(s.path).devices]
    if shard is None:
        return chosen
    k, n = shard
    durations = []
    for snippet in chosen:
        record = _safe_read(snippet.record_path(device))
        durations.append((snippet.rel, record.duration_s if record else None))
    keep = set(assign(durations, n)[k - 1])
    return [s for s in chosen if s.rel in keep]


def _safe_read(path: Path) -> Record | None:
    try:
        return read_record(path)
    except RecordError:
        return None  # a damaged record is treated as missing; the run rewrites it


def plan(root: Path, snippets: list[Snippet], env: Environment, force: bool,
         all_fresh: bool = False) -> tuple[list[Job], list[Outcome]]:
    jobs: list[Job] = []
    cached: list[Outcome] = []
    for snippet in snippets:
        options = parse_options(snippet.path)
        key, helpers = compute_key(snippet, env, root)
        previous = _safe_read(snippet.record_path(env.device))
        if (not force and previous is not None and previous.key == key
                and not previous.is_stale and not misplaced(previous, snippet, env.device)):
            cached.append(Outcome(snippet.rel, env.device, previous.status, True,
                                  previous.duration_s, previous.output,
                                  error_type=previous.error_type))
            continue
        sources = [snippet.path.read_text(encoding="utf-8")]
        sources += [(root / helper).read_text(encoding="utf-8") for helper in helpers]
        need = fresh_need(sources[0], options)
        # CUDA: no CUDA state may cross a fork (worker.stay_cold), so every snippet is a fresh
        # interpreter, exec'd by a worker that never imported torch.
        cuda = env.device == "cuda"
        fresh = need is not None or all_fresh or cuda
        jobs.append(Job(snippet, key, helpers, options.expect, options.timeout, fresh, previous,
                        # a fresh one never runs in its worker: the cheaper warm-up will do
                        warm="cold" if cuda else cast(WarmKind, "export" if fresh else
                                                      warm_kind(sources)),
                        defer_torch=need is not None and need.defer_torch,
                        packages=package_versions(sources),
                        port_default=rendezvous_port_default(sources[0])))
    # Longest first keeps both workers busy to the end.
    jobs.sort(key=lambda job: (-(job.previous.duration_s if job.previous else 1e9), job.snippet.rel))
    return jobs, cached


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _window(reply: Reply) -> RunWindow | None:
    """When the worker says the snippet ran; None for a task no worker started."""
    if "started_at" in reply and "ended_at" in reply:
        return RunWindow(reply["started_at"], reply["ended_at"])
    return None


def execute(root: Path, jobs: list[Job], env: Environment, parallel: int,
            progress: Progress, pool: WorkerPool | None = None,
            mark_failures: bool = True, cpu_capability: str | None = None) -> list[Outcome]:
    """Run the jobs and keep the records: a good result is stored (unless it says what the record
    already says), a failure marks the last good record stale, or, with `mark_failures=False`
    (a live preview), leaves every record as it is and only reports the failure.

    `cpu_capability` runs the snippets under another CPU capability than the host's
    (`snippet_env.CPU_CAPABILITIES`): only in a scratch copy, never the checkout, since such a
    run is compared with the records, never recorded (`commands.verify`)."""
    tasks: list[Task] = []
    by_id = {}
    for index, job in enumerate(jobs):
        by_id[index] = job
        tasks.append(Task(
            id=index, path=str(job.snippet.path), device=env.device,
            snippets_root=str(root / "snippets"), expect=job.expect,
            timeout=job.timeout, fresh=job.fresh, warm=job.warm,
            defer_torch=job.defer_torch, port_default=job.port_default,
        ))
    outcomes = []
    replies = (pool.run(tasks) if pool is not None
               else run_parallel(tasks, env.device, parallel, cpu_capability))
    for reply in replies:
        job = by_id[reply["id"]]
        context = PathContext.build(root.resolve(),
                                    Path(reply["task_dir"]) if reply["task_dir"] else None,
                                    Path(reply["work_dir"]) if reply["work_dir"] else None,
                                    reply.get("pid"), reply.get("interpreter"),
                                    _window(reply))
        output = normalize(reply["output"], context)
        message = normalize(reply["message"], context)
        outcome = Outcome(job.snippet.rel, env.device, reply["status"], False, reply["duration"],
                          output, message, key=job.key, hint=reply.get("hint", ""),
                          error_type=reply.get("error_type", ""))
        record_path = job.snippet.record_path(env.device)
        if outcome.status in GOOD:
            record = Record(
                snippet=job.snippet.rel, device=env.device, status=outcome.status, output=output,
                key=job.key, source_sha256=sha256_file(job.snippet.path), engine=ENGINE_VERSION,
                torch=env.torch_version, python=env.python_version, hardware=env.hardware,
                duration_s=reply["duration"], peak_rss_mib=reply["maxrss_kib"] / 1024,
                recorded=_now(), error_type=outcome.error_type, helpers=job.helpers,
                packages=job.packages,
            )
            outcome.record_changed = store(record_path, record)
        elif mark_failures:
            first_line = message.splitlines()[0] if message else ""
            outcome.record_changed = mark_stale(
                record_path, f"the last run ({_now()}) {outcome.status}: {first_line}")
        progress.finished(outcome.path, env.device, outcome.status, outcome.seconds)
        outcomes.append(outcome)
    return outcomes


def summarize_failures(outcomes: list[Outcome], root: Path, tail: int = 12) -> str:
    """Each failure once: what happened and where, the end of what it printed (the traceback,
    which holds the exception's text), and how to fix it."""
    bad = [o for o in outcomes if o.status not in GOOD]
    if not bad:
        return ""
    lines = [f"{len(bad)} snippet(s) did not run as declared:"]
    for outcome in sorted(bad, key=lambda o: o.path):
        lines.append(f"\n  {outcome.path} [{outcome.device}]: {outcome.status}: {outcome.message}")
        explain = [line for line in outcome.output.rstrip().splitlines() if line.strip()]
        if len(explain) > tail:
            lines.append(f"    | ... ({len(explain) - tail} earlier line(s) not shown)")
        lines.extend(f"    | {line}" for line in explain[-tail:])
        if outcome.hint:
            lines.append(f"    fix: {outcome.hint}")
        record = outcome.record_path(root)
        if record.exists():
            lines.append(f"    its last good record, {record.relative_to(root).as_posix()}, "
                         "is kept and marked stale")
    return "\n".join(lines)
