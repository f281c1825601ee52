"""The code that runs inside a snippet's own process, forked from a warm worker or started fresh.

Both ways run `execute()`, so a forked child and a fresh `python` give the same record. It points
fds 1 and 2 at the capture pipe (so output from C++ and libraries is caught too), seeds every RNG
(and, at the end, tells which the snippet drew from without seeding it itself: `_unseeded`),
runs the snippet as `__main__`, and writes what happened to a small JSON file for the worker. The
snippet's own output, and the error a reader should see, go to the capture; nothing else does.

Standard library only, plus torch when the snippet's process has it.
"""

from __future__ import annotations

import atexit
import builtins
import ctypes
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import random
import sys
import threading
import traceback
import types
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:  # never at run time: a fresh child must not import the engine (see main)
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    from snippet_engine.protocol import ChildResult, ChildTask


def _flush_all() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    try:
        ctypes.CDLL(None).fflush(None)  # C stdio buffers (printf from C++ extensions)
    except Exception:
        pass


# The engine's seed for torch's default generator, before the snippet's own. Not 0, the seed
# snippets use, so that `torch.initial_seed()` tells whether the snippet seeded it (`_unseeded`).
ENGINE_TORCH_SEED = 0x5EED_0F_E9619E
# What each generator held just after the engine seeded it, and the generators the snippet seeded
# itself (random.seed, numpy.random.seed and their setstate are watched; torch by initial_seed).
_seeded_states: dict[str, object] = {}
_seeded_by_snippet: set[str] = set()


def _torch_state(torch: object) -> bytes:
    """The default generator's state as bytes: a tensor kept here would be one more tensor that a
    snippet counting the live tensors (`gc.get_objects()`) finds."""
    return bytes(torch.get_rng_state().tolist())  # type: ignore[attr-defined]


def _seed_torch(torch: object) -> None:
    torch.manual_seed(ENGINE_TORCH_SEED)  # type: ignore[attr-defined]
    torch.set_num_threads(1)  # type: ignore[attr-defined]
    _seeded_states["torch"] = _torch_state(torch)


class _SeedTorchOnImport(importlib.abc.MetaPathFinder):
    """Seeds torch the moment the snippet's own `import torch` finishes: for a snippet that sets
    variables torch reads at import, torch must not be imported before the snippet runs, and its
    first random numbers must still be those of a seeded run."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module: object) -> None:
            original(module)  # type: ignore[arg-type]
            _seed_torch(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _watch_seeding(name: str, module: object) -> None:
    """Note when the snippet seeds (or sets the state of) `module`'s global generator."""
    for attr in ("seed", "setstate", "set_state"):
        original = getattr(module, attr, None)
        if original is None:
            continue

        def watched(*args: object, _original: object = original, **kwargs: object) -> object:
            _seeded_by_snippet.add(name)
            return _original(*args, **kwargs)  # type: ignore[operator]

        setattr(module, attr, watched)


def _seed(defer_torch: bool = False) -> None:
    random.seed(0)
    _seeded_states["random"] = random.getstate()
    _watch_seeding("random", random)
    np = sys.modules.get("numpy")
    if np is None:
        try:
            import numpy as np
        except ImportError:
            np = None
    if np is not None:
        np.random.seed(0)
        _seeded_states["numpy"] = np.random.get_state()[1].tobytes()
        _watch_seeding("numpy", np.random)
    if defer_torch:
        sys.meta_path.insert(0, _SeedTorchOnImport())
        return
    try:
        import torch
    except ImportError:
        return
    _seed_torch(torch)


def _unseeded() -> list[str]:
    """The generators the snippet drew from without seeding them: under plain `python` each
    starts from a seed of its own on every run (torch's default generator too), so what the
    snippet printed from them is not what a reader gets. The engine's seed would make the record
    stable all the same, which is why this is asked and the run refused (verdict.classify).
    Draws made before the snippet's own seed call are not seen."""
    drawn = []
    if "random" not in _seeded_by_snippet and random.getstate() != _seeded_states["random"]:
        drawn.append("random")
    np = sys.modules.get("numpy")
    if np is not None and "numpy" in _seeded_states and "numpy" not in _seeded_by_snippet \
            and np.random.get_state()[1].tobytes() != _seeded_states["numpy"]:
        drawn.append("numpy")
    torch = sys.modules.get("torch")
    if torch is not None and "torch" in _seeded_states \
            and torch.initial_seed() == ENGINE_TORCH_SEED \
            and _torch_state(torch) != _seeded_states["torch"]:
        drawn.append("torch")
    return drawn


def exception_matches(exc: BaseException, expect: str) -> bool:
    """Whether `exc` is an instance of the class `expect` names (bare name or dotted path)."""
    mro = type(exc).__mro__
    if "." not in expect:
        return any(cls.__name__ == expect for cls in mro)
    module_name, _, attr = expect.rpartition(".")
    try:
        target = getattr(importlib.import_module(module_name), attr)
        if isinstance(target, type) and isinstance(exc, target):
            return True
    except Exception:
        pass
    return any(f"{cls.__module__}.{cls.__qualname__}" == expect for cls in mro)


def qualified_name(exc: BaseException) -> str:
    cls = type(exc)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _user_traceback(exc: BaseException, snippet: str) -> str:
    """The traceback from the snippet's first frame on, as Python would print it."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != snippet:
        tb = tb.tb_next
    if tb is None:  # a syntax error, or an error before the snippet's first line ran
        return "".join(traceback.format_exception_only(type(exc), exc))
    return "".join(traceback.format_exception(type(exc), exc, tb))


def snippet_line(exc: BaseException, snippet: str) -> int | None:
    """The line of the snippet where `exc` came from: its innermost frame in the snippet's file."""
    if isinstance(exc, SyntaxError) and exc.filename == snippet:
        return exc.lineno
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == snippet:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _finalize() -> None:
    """End as a fresh interpreter ends (Py_FinalizeEx), before the engine's `os._exit`: first
    `threading._shutdown`, which runs threading's own exit hooks (`ThreadPoolExecutor` finishes
    the work it was given) and waits for every non-daemon thread, then the `atexit` handlers,
    then the flush of every buffer. Without it a thread's output would be lost, and forked and
    fresh runs would agree on losing it. The worker's timeout still bounds the wait."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:
        # As Python does: an error while waiting (Ctrl-C) is printed, and exit goes on.
        traceback.print_exc()
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    _flush_all()


_warnings_shown: list[bool] = []  # one entry once the snippet has shown a warning


def _count_warnings_shown() -> None:
    """Note in the result that the snippet showed a warning (Python's and torch's `TORCH_WARN`
    alike go through `warnings._showwarnmsg`), for the worker to run it again fresh.

    Whether a warning shows a second time depends on what a fresh process imports on the way:
    an import that adds a warning filter (sympy's, at a first export or gradcheck) resets every
    module's registry of warnings already shown, and the warm worker imported those modules long
    ago. `core/custom_fn_pitfalls` showed the float32 gradcheck warning once where `python`
    shows it twice. No reset of the child can replay imports it will not make, so a forked
    snippet that shows a warning is run again in a fresh interpreter (the few that do are
    quick)."""
    original = warnings._showwarnmsg  # type: ignore[attr-defined]

    def _showwarnmsg(message: warnings.WarningMessage) -> None:
        _warnings_shown[:] = [True]
        original(message)

    warnings._showwarnmsg = _showwarnmsg  # type: ignore[attr-defined]


def _run_as_main(path: str) -> None:
    """Run the file as `python path` runs it, not as `runpy.run_path` does: its module is
    `sys.modules["__main__"]` for good (pickle, multiprocessing and a late thread find it),
    `__builtins__` is the builtins module (runpy gives a dict), `__loader__` a
    SourceFileLoader named `__main__` (runpy gives None) and `sys.orig_argv` names the
    snippet, not the worker's or child.py's command line."""
    module = types.ModuleType("__main__")
    module.__dict__.update({
        "__loader__": importlib.machinery.SourceFileLoader("__main__", path),
        "__spec__": None, "__annotations__": {}, "__builtins__": builtins,
        "__file__": path, "__cached__": None})
    sys.modules["__main__"] = module
    sys.orig_argv[1:] = [path]
    with io.open_code(path) as source:
        code = compile(source.read(), path, "exec", dont_inherit=True)
    exec(code, module.__dict__)


def _reset_warm_state() -> None:
    """What the warm worker's imports fixed from the worker's own state and a fresh process
    computes from the snippet's: Dynamo's debug folder comes from the working folder at import
    (the checkout, in the worker)."""
    config = sys.modules.get("torch._dynamo.config")
    default = getattr(config, "default_debug_dir_root", None)
    if default is not None:
        config.debug_dir_root = default()  # type: ignore[union-attr]


def execute(task: ChildTask, capture_fd: int | None = None) -> NoReturn:
    """Run one snippet in this process and exit it. Never returns."""
    result_path = Path(task["result"])
    result: ChildResult = {"outcome": "ok"}
    try:
        if capture_fd is not None:
            os.dup2(capture_fd, 1)
            os.dup2(capture_fd, 2)
            os.close(capture_fd)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        for stream in (sys.stdout, sys.stderr):
            stream.reconfigure(line_buffering=True, errors="backslashreplace")  # type: ignore[union-attr]
        os.chdir(task["cwd"])
        # The snippet from its own path in a checkout it cannot write to (an overlay), or a copy
        # of it and its helpers in its own folder (`namespaces`): either way a snippet or helper
        # that writes beside itself (`Path(__file__).parent / "model.pt2"`) cannot write into
        # the checkout. The worker writes a copy's path back as the original's.
        snippet = task["copy"]
        checkout = os.path.dirname(task["snippets_root"])
        snippets_root = os.path.join(task["source_root"],
                                     os.path.relpath(task["snippets_root"], checkout))
        sys.argv = [snippet]
        # Resolved, so that what torch prints does not depend on how the interpreter was reached:
        # torch writes a module's path relative to the sys.path entry holding it, after
        # resolving the module's path but not the entry (torch/_logging/_internal.py), so a
        # venv reached through a symlink would print full paths where a real folder prints
        # torch/...
        entries = [str(Path(snippet).parent), snippets_root] + [
            p for p in sys.path[1:] if p not in ("", ".")]
        sys.path[:] = list(dict.fromkeys(os.path.realpath(p) for p in entries))
        _reset_warm_state()
        if not task["fresh"]:
            _count_warnings_shown()
        _seed(task["defer_torch"])
    except BaseException as exc:
        result = {"outcome": "engine-error", "message": repr(exc)}
        result_path.write_text(json.dumps(result))
        os._exit(70)

    try:
        _run_as_main(snippet)
    except SystemExit as exc:
        code = exc.code
        if code not in (None, 0):
            result = {"outcome": "exit", "exit_code": code if isinstance(code, int) else 1,
                      "message": f"the snippet called sys.exit({code!r})"}
            if not isinstance(code, int):
                print(code, file=sys.stderr)
    except BaseException as exc:
        expect = task["expect"]
        result = {"outcome": "exception", "type": qualified_name(exc),
                  "summary": "".join(traceback.format_exception_only(type(exc), exc)).strip(),
                  "line": snippet_line(exc, snippet)}
        if expect and exception_matches(exc, expect):
            result["matches"] = True
            sys.stderr.write("".join(traceback.format_exception_only(type(exc), exc)))
        else:
            result["matches"] = False
            sys.stderr.write(_user_traceback(exc, snippet))
    _finalize()
    try:
        unseeded = _unseeded()
    except Exception:  # a snippet that broke a generator's module: judged on what it printed
        unseeded = []
    if unseeded:
        result["unseeded"] = unseeded
    if _warnings_shown:  # however it ended: an expected error's warnings are in its record too
        result["warnings_shown"] = True
    result_path.write_text(json.dumps(result))
    os._exit(0)


def main() -> None:
    """Entry point of a fresh process: `python child.py TASK.json` (fds already redirected)."""
    task: ChildTask = json.loads(Path(sys.argv[1]).read_text())
    if not task["defer_torch"]:
        try:
            import torch  # noqa: F401 - imported as a forked child would have it, before seeding
        except ImportError:
            pass
    execute(task)


if __name__ == "__main__":
    builtins.__dict__.pop("_", None)
    main()
