"""How a snippet's run ended, in the record's words: ok, an expected error, a failure, a timeout
or an output cap, with the message a person needs (the line of the snippet that raised, and what
to change). Decided from the exit status, the reason the worker killed it, if any, and what the
child reported. Standard library only.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from snippet_engine.protocol import EXPECT_MISSING, ChildResult, KillReason, Task, Verdict

OUTPUT_CAP = 1024 * 1024  # bytes of stdout+stderr a snippet may print; the worker stops it past that


def _source_line(path: str, line: int | None) -> str:
    """' at line N: <the code>' for the message, or '' when the line is not known."""
    if not line:
        return ""
    try:
        code = Path(path).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError):
        code = ""
    return f" at line {line}" + (f": {code}" if code else "")


def classify(task: Task, status_word: int | None, killed_for: KillReason | None,
             child_result: ChildResult | None) -> Verdict:
    """Turn how the child ended into one of the engine's outcomes, with a reason."""
    expect = task["expect"]
    if killed_for == "timeout":
        return {"status": "timeout", "message": (
            f"ran past its timeout of {float(task['timeout']):g} s; it and every process it "
            "started were killed. Make it faster, or raise '#| timeout:' if it is truly this slow")}
    if killed_for == "cap":
        return {"status": "failed", "message": (
            f"printed more than the {OUTPUT_CAP // 1024} KiB output cap and was stopped. "
            "Print only what the reader needs")}
    if status_word is not None and os.WIFSIGNALED(status_word):
        signum = os.WTERMSIG(status_word)
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        return {"status": "crashed", "signal": name,
                "message": f"the process was killed by {name}"}
    code = os.WEXITSTATUS(status_word) if status_word is not None else -1
    if child_result is None:
        return {"status": "failed",
                "message": f"the process exited with status {code} before reporting a result "
                           "(os._exit in the snippet?)"}
    outcome = child_result["outcome"]
    if outcome == "engine-error":
        return {"status": "failed", "message": f"the engine could not start it: {child_result['message']}"}
    if outcome == "exit":
        return {"status": "failed", "message": child_result["message"]}
    if outcome == "exception":
        raised = child_result["type"]
        if child_result["matches"]:
            return {"status": "expected-error", "error_type": raised,
                    "message": child_result["summary"]}
        # The exception's text is in the output (the traceback); the message names the snippet's
        # line instead of repeating it, and the hint gives the exact option line to add.
        where = _source_line(task["path"], child_result.get("line"))
        if expect:
            return {"status": "failed", "error_type": raised,
                    "message": f"expected {expect} but it raised {raised}{where}",
                    "hint": f"fix the snippet, or, if {raised} is now the point, change its option "
                            f"line to '#| expect: {raised}'"}
        return {"status": "failed", "error_type": raised, "message": f"raised {raised}{where}",
                "hint": f"if this error is the point of the snippet, add '#| expect: {raised}' "
                        "as its first line; otherwise fix the line above"}
    if expect:
        return {"status": "failed", "message": (
            f"declares '#| expect: {expect}' but {EXPECT_MISSING}. "
            "Fix the snippet, or drop the expect line if it should now run clean")}
    return {"status": "ok", "message": ""}
