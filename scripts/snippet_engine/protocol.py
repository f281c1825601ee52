"""The messages between the coordinator, a warm worker and a snippet's process, described once.

Three processes pass JSON to each other: the coordinator (`runner` through `scheduler`) sends a
worker one `Task` per line, the worker hands the snippet's process a `ChildTask` in a file, the
snippet's process writes back a `ChildResult` file, and the worker answers the coordinator with
one `Reply` per task. JSON carries no types, so these `TypedDict`s are the one place that says
which keys each message has: every module builds and reads them through these names, and a type
checker (mypy) finds a key that one side spells differently from the other.

Standard library only: the worker and the snippet's process import this too.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# What happened to a snippet, as a run reports it and a record stores it (CONTRIBUTING.md,
# "Outcomes"). Only the first two are good: they are recorded; the others mark a record stale.
Outcome = Literal["ok", "expected-error", "failed", "timeout", "crashed"]
GOOD: tuple[Outcome, ...] = ("ok", "expected-error")

# How the snippet's own process ended, as it reports it itself (the worker turns this, and how
# the process exited, into an Outcome): ran to the end, could not be started by the engine,
# called sys.exit() with a non-zero code, raised.
ChildOutcome = Literal["ok", "engine-error", "exit", "exception"]

# Which warm worker forks the snippet (analysis.warm_kind): one that never imported Inductor,
# or one that has already compiled once; or, for a CUDA run, a worker that never imports torch
# and only forks and execs a fresh interpreter per snippet ("cold": no CUDA state can cross a
# fork, see runner.plan). The scheduler tells a worker its kind in this variable.
WarmKind = Literal["export", "compile", "cold"]
WARM_UP_VARIABLE = "SNIPPET_WARM_UP"

# Why the worker killed a snippet and what it started before it ended by itself.
KillReason = Literal["timeout", "cap"]

# The end of the message for a snippet that declares `expect` and runs clean; a drift run finds
# "now runs" by it.
EXPECT_MISSING = "ran without raising it"


class Task(TypedDict):
    """Coordinator to worker: run one snippet. `id` comes back in the reply, since replies
    arrive in completion order."""

    id: int
    path: str  # the snippet, absolute
    device: str  # "cpu" or "cuda": SNIPPET_DEVICE
    snippets_root: str  # importable by the snippet, for its helpers
    expect: str | None  # the `#| expect:` class name, if any
    timeout: float  # seconds, for the snippet and every process it starts
    fresh: bool  # exec a new interpreter instead of running in the forked child
    warm: WarmKind
    defer_torch: bool  # fresh, and the snippet imports torch itself (it sets torch's variables)
    port_default: str | None  # its default MASTER_PORT: the worker gives it a free one instead


class ChildTask(Task):
    """Worker to the snippet's process (written to task.json): the task and where to run it."""

    cwd: str  # the empty working directory
    copy: str  # the path the snippet runs as: its own, where the checkout it sees is an overlay
    #            (`namespaces`), or a copy in its own folder; either way it cannot write into the
    #            checkout through __file__ (the worker maps a copy's path back to the original's)
    source_root: str  # what stands for the checkout: itself (overlay) or the copy's folder, which
    #                   holds the snippet and its helpers at their paths relative to the checkout
    result: str  # where to write the ChildResult
    port: str | None  # its own free MASTER_PORT, when it has a default one (port_default)


class ChildResult(TypedDict):
    """The snippet's process to the worker (result.json): how the snippet itself ended. A process
    that dies before writing it (a signal, os._exit) is judged by its exit status alone."""

    outcome: ChildOutcome
    message: NotRequired[str]  # engine-error, exit: what went wrong
    exit_code: NotRequired[int]  # exit: the code passed to sys.exit
    type: NotRequired[str]  # exception: its qualified class name
    summary: NotRequired[str]  # exception: "Type: message", as Python's last traceback line
    line: NotRequired[int | None]  # exception: the snippet's line it came from, when known
    matches: NotRequired[bool]  # exception: whether it is the declared `expect`
    # A forked snippet showed a warning: the worker runs it again fresh (child._count_warnings_shown)
    warnings_shown: NotRequired[bool]
    # The generators it drew from without seeding them ("torch", "random", "numpy"): refused
    unseeded: NotRequired[list[str]]


class Verdict(TypedDict):
    """The engine's judgement of one run: its outcome and why, for a person to read."""

    status: Outcome
    message: str  # "" when ok; otherwise what happened and where
    error_type: NotRequired[str]  # the exception's qualified name, when one was raised
    hint: NotRequired[str]  # how to fix a failure, when the engine can tell
    signal: NotRequired[str]  # crashed: the signal's name, e.g. "SIGSEGV"


class Reply(Verdict):
    """Worker to coordinator: what one task did. The paths and the pid are the snippet's own,
    for the coordinator to normalise them out of the output."""

    id: int
    output: str  # stdout and stderr, interleaved as printed, at most the output cap
    duration: float  # seconds, from the fork to the process's exit
    maxrss_kib: int  # peak resident memory of the snippet's process
    task_dir: str  # "" when the worker never got to start it
    work_dir: str
    pid: NotRequired[int]
    interpreter: NotRequired[dict[str, str]]  # the worker's sysconfig paths (normalize.PathContext)
    # When the snippet ran (time.time() at the fork and after its last output): a time it printed
    # in between is a clock reading (normalize.RunWindow).
    started_at: NotRequired[float]
    ended_at: NotRequired[float]


def engine_failure(task_id: int, message: str) -> Reply:
    """The reply for a task no worker could answer (a worker that died or could not start)."""
    return Reply(id=task_id, status="failed", output="", message=message, duration=0.0,
                 maxrss_kib=0, task_dir="", work_dir="")
