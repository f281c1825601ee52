"""How a snippet's run ended, in the record's words: ok, an expected error, a failure, a timeout
or an output cap, with the message a person needs (the line of the snippet that raised, and what
to change). Decided from the exit status, the reason the worker killed it, if any, and what the
child reported. Standard library only.
"""

from __future__ import annotations

import ast
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


# How a snippet seeds each generator it may draw from unseeded (child._unseeded), and the calls that
# draw from it, to point at the first one: torch's factories and in-place samplers, and the
# modules whose constructors initialise their weights at random.
_SEED_CALL = {"torch": "torch.manual_seed(0)", "random": "random.seed(0)",
              "numpy": "np.random.seed(0)"}
_TORCH_DRAWS = ("rand", "randn", "randint", "randperm", "rand_like", "randn_like",
                "randint_like", "normal", "normal_", "uniform_", "random_", "bernoulli",
                "bernoulli_", "multinomial", "poisson", "exponential_", "dropout", "Dropout",
                "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d",
                "Embedding", "EmbeddingBag", "LSTM", "GRU", "RNN", "MultiheadAttention",
                "Transformer", "TransformerEncoderLayer", "TransformerDecoderLayer",
                "kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_",
                "trunc_normal_", "DataLoader", "random_split", "RandomSampler")


def _call_name(node: ast.Call) -> str:
    parts = []
    func: ast.AST = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


def _draws_from(name: str, generator: str) -> bool:
    last = name.rpartition(".")[2]
    if generator == "torch":
        return last in _TORCH_DRAWS and not name.startswith(("random.", "np.", "numpy."))
    if generator == "numpy":
        return name.startswith(("np.random.", "numpy.random."))
    return name.startswith("random.") and last not in ("seed", "Random", "getstate", "setstate")


def unseeded_lines(path: str, generators: list[str]) -> tuple[int | None, int]:
    """(the first line that looks like a draw from one of `generators`, or None; the line after
    which a seed call goes: the last of the imports at the top of the file, or 0)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None, 0
    after = 0
    for statement in tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            after = statement.end_lineno or statement.lineno
        elif not isinstance(statement, ast.Expr):
            break  # an Expr: the docstring, or a call between imports (logging setup)
    draws = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
             and any(_draws_from(_call_name(node), g) for g in generators)]
    return (min(draws) if draws else None), after


def _unseeded_verdict(task: Task, generators: list[str]) -> Verdict:
    """A run that drew random numbers it never seeded: refused, with where and how to seed."""
    names = {"torch": "torch's default generator", "random": "Python's `random`",
             "numpy": "NumPy's global generator"}
    first, after = unseeded_lines(task["path"], generators)
    where = f"; the first draw found{_source_line(task['path'], first)}" if first else ""
    calls = "; ".join(_SEED_CALL[g] for g in generators)
    return {"status": "failed", "message": (
        f"draws random numbers from {' and '.join(names[g] for g in generators)} without seeding "
        f"it{where}. Plain `python` starts each generator from a new seed on every run, so the "
        "numbers it prints (or the order, or the weights) are not what a reader gets; the "
        "engine's own seed would only hide it"),
        "hint": f"seed it at the top: add `{calls}` after the imports (after line {after}); "
                "re-run and check that the page still says what the new record shows"}


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
            if child_result.get("unseeded"):
                return _unseeded_verdict(task, child_result["unseeded"])
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
    if child_result.get("unseeded"):
        return _unseeded_verdict(task, child_result["unseeded"])
    return {"status": "ok", "message": ""}
