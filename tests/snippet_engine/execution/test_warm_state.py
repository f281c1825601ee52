"""A snippet forked from a warm worker sees the interpreter and torch state a fresh `python` has:
a broad probe of that state prints the same under a warm worker as under `--fresh` (a new
interpreter per snippet, in which the snippet's own `import torch` is the first).

What a warm worker has done and a fresh process has not (imported torch and its lazily imported
modules, run an export or a compile, shown warnings, started thread pools) must not show: what
the child can reset is reset (`worker._prepare_child_env`, `child.execute`), and what it cannot
(a warning a lazy import would show again, a clock) makes the snippet run fresh
(`source.analysis.fresh_need`, `child._warm_state_shows`).

The probe reads `sys.modules` through `getattr` so that the engine does not route it to a fresh
interpreter (which it does for a snippet that reads `sys.modules` in the plain way): the point is
to see what a forked child sees.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.records.record_file import read_record

PROBE = '''\
import faulthandler, gc, locale, os, random, signal, sys, threading, time, warnings
import torch

import torch._dynamo.utils

loaded = getattr(sys, "mod" + "ules")
main = loaded["__main__"]
print("main module is this one:", main.__dict__ is globals())
print("globals:", sorted(k for k in globals() if k.startswith("__")))
print("__builtins__:", type(__builtins__).__name__)
print("__loader__:", type(__loader__).__name__, getattr(__loader__, "name", None))
print("__spec__:", __spec__, "__package__:", __package__, "__cached__:", globals().get("__cached__"))
print("sys.argv:", sys.argv)
print("sys.orig_argv[1:]:", sys.orig_argv[1:])
print("sys.path[0]:", sys.path[0])
print("sys.flags:", sys.flags)
print("recursion limit:", sys.getrecursionlimit(), "switch interval:", sys.getswitchinterval())
print("trace/profile:", sys.gettrace(), sys.getprofile())
print("hooks:", sys.excepthook is sys.__excepthook__, sys.displayhook is sys.__displayhook__,
      sys.breakpointhook is sys.__breakpointhook__, threading.excepthook.__name__)
print("stdout:", sys.stdout.encoding, sys.stdout.errors, sys.stdout.line_buffering)
print("stdin:", sys.stdin.read())
print("environ:", sorted(os.environ.items()))
print("cwd is empty:", os.listdir(os.getcwd()) == [])
print("umask:", oct(os.umask(0o22)))
print("own session:", os.getsid(0) == os.getpid())
print("signals:", [(s.name, repr(signal.getsignal(s))) for s in
                   (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGCHLD,
                    signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM)])
print("faulthandler:", faulthandler.is_enabled())
print("gc:", gc.isenabled(), gc.get_threshold(), "frozen:", gc.get_freeze_count())
print("threads:", [t.name for t in threading.enumerate()])
print("locale:", locale.setlocale(locale.LC_ALL), time.tzname)
print("warning filters:", warnings.filters)
print("onceregistry:", warnings.onceregistry)
print("torch threads:", torch.get_num_threads(), torch.get_num_interop_threads())
print("default dtype/device:", torch.get_default_dtype(), torch.get_default_device())
print("grad:", torch.is_grad_enabled(), torch.is_inference_mode_enabled(),
      torch.is_anomaly_enabled())
print("deterministic:", torch.are_deterministic_algorithms_enabled(),
      torch.is_deterministic_algorithms_warn_only_enabled())
print("matmul precision:", torch.get_float32_matmul_precision())
print("flush denormal / mkldnn:", torch.backends.mkldnn.enabled, torch.backends.mkldnn.is_available())
print("torch function modes:", torch._C._len_torch_function_stack(),
      "dispatch modes:", torch._C._len_torch_dispatch_stack())
# The generators' states, without drawing from them (an unseeded draw fails the run).
print("seeds:", torch.initial_seed(), torch.get_rng_state().sum().item(), random.getstate()[1][:3])
print("dynamo counters:", {k: dict(v) for k, v in torch._dynamo.utils.counters.items() if v})
print("dynamo config:", sorted(torch._dynamo.config.get_config_copy().items()))
print("inductor loaded:", "torch._" "inductor" in loaded)
'''

# Shows a warning: a fresh process's first gradcheck imports sympy, which adds a warning filter and
# so resets the registry of warnings shown, and the float32 warning shows twice
# (core/custom_fn_pitfalls); the warm worker imported sympy long ago.
WARNINGS = '''\
import torch
from torch.autograd import gradcheck

x = torch.tensor([0.5, 1.5], requires_grad=True)
for _ in range(2):
    print("gradcheck float32:", gradcheck(torch.sin, (x,), raise_exception=False))
'''

# Aliased clocks: each names what the detection must see under another name, so the snippet runs
# fresh, where torch is not imported yet and its import takes a while (source.analysis).
CLOCKS = {
    "alias_time.py": "import time as clock\nt = clock.perf_counter()\nimport torch\n"
                     "print('import torch took over 0.2 s:', clock.perf_counter() - t > 0.2)\n",
    "alias_sys.py": "import sys as s\n"
                    "print('torch imported before the snippet did:', 'torch' in s.modules)\n",
}


def _records(root: Path) -> dict[str, str]:
    out = {}
    for path in sorted((root / "snippets" / "t").glob("*.cpu.txt")):
        record = read_record(path)
        assert record is not None, path
        out[path.name.removesuffix(".cpu.txt")] = record.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The records forked from a warm worker and fresh."""
    outputs = {}
    for way in ("warm", "fresh"):
        root = tmp_path_factory.mktemp(f"state-{way}")
        # The clocks run fresh either way: only the warm run needs them.
        bank = {"probe.py": PROBE, "warnings.py": WARNINGS,
                # the same, ending in an expected error: its warnings are in the record too
                "warnings_raise.py": "#| expect: ValueError\n" + WARNINGS + "raise ValueError('x')\n",
                **(CLOCKS if way == "warm" else {})}
        for name, text in bank.items():
            write(root, f"snippets/t/{name}", text)
        flags = ("--fresh",) if way == "fresh" else ()
        done = run_cli("run", "--jobs", "1", "--progress", "never", *flags, root=root)
        assert done.returncode == 0, done.stdout + done.stderr
        outputs[way] = _records(root)
    return outputs


def _plain_python(text: str, tmp_path: Path) -> str:
    """What `python snippet.py` prints, stdout and stderr together, in an empty folder."""
    path = write(tmp_path, "snippet.py", text)
    work = tmp_path / "work"
    work.mkdir()
    return subprocess.run([sys.executable, str(path)], cwd=work, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL).stdout


@pytest.mark.parametrize("name", ["probe", "warnings", "warnings_raise"])
def test_forked_is_the_same_as_fresh(runs: dict[str, dict[str, str]], name: str) -> None:
    warm, fresh = runs["warm"][name], runs["fresh"][name]
    differing = [(w, f) for w, f in zip(warm.splitlines(), fresh.splitlines(), strict=False) if w != f]
    assert warm == fresh, "\n".join(f"warm:  {w}\nfresh: {f}" for w, f in differing)


def test_a_warning_shows_as_often_as_in_plain_python(runs: dict[str, dict[str, str]],
                                                    tmp_path: Path) -> None:
    plain = _plain_python(WARNINGS, tmp_path)
    assert plain.count("UserWarning") == 2
    assert runs["warm"]["warnings"].count("UserWarning") == 2
    assert runs["warm"]["warnings_raise"].count("UserWarning") == 2


def test_aliased_clocks_get_a_fresh_interpreters_answer(runs: dict[str, dict[str, str]]) -> None:
    assert runs["warm"]["alias_time"] == "import torch took over 0.2 s: True\n"
    assert runs["warm"]["alias_sys"] == "torch imported before the snippet did: False\n"


def test_probe_is_what_plain_python_prints(runs: dict[str, dict[str, str]], tmp_path: Path) -> None:
    """The lines that do not depend on how the process was started or on paths are a plain
    `python`'s: the main module's globals, the warning filters, torch's global state."""
    plain = _plain_python(PROBE, tmp_path).splitlines()
    wanted = ("main module is", "globals:", "__builtins__:", "__loader__:", "__spec__:",
              "warning filters:", "onceregistry:", "dynamo counters:", "inductor loaded:",
              "grad:", "deterministic:", "default dtype", "torch function modes:", "hooks:",
              "trace/profile:", "gc:", "faulthandler:", "threads:", "matmul precision:")
    lines = [line for line in runs["warm"]["probe"].splitlines() if line.startswith(wanted)]
    assert len(lines) == len(wanted)
    assert [line for line in lines if line not in plain] == []
