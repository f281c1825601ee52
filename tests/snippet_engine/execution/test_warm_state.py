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
print("seeds:", torch.initial_seed(), torch.rand(2).tolist(), random.random())
print("dynamo counters:", {k: dict(v) for k, v in torch._dynamo.utils.counters.items() if v})
print("dynamo config:", sorted(torch._dynamo.config.get_config_copy().items()))
print("inductor loaded:", "torch._" "inductor" in loaded)
# Warnings: a warning shown, a module imported for the first time (as a fresh process does at
# its first export), and the same warning again.
def warn():
    warnings.warn("probe warning")
warn()
warnings.simplefilter("ignore", DeprecationWarning)  # any change of the filters, as an import makes
warn()
# The same without the snippet's help: a fresh process's first gradcheck imports sympy, which
# adds a filter, so the float32 warning shows twice (core/custom_fn_pitfalls).
from torch.autograd import gradcheck
x = torch.tensor([0.5, 1.5], requires_grad=True)
for _ in range(2):
    print("gradcheck float32:", gradcheck(torch.sin, (x,), raise_exception=False))
'''

# Aliased clocks and torch.utils.benchmark: each names a clock the detection must see, so the
# snippet runs fresh and its first import of torch (timed here) is a fresh process's.
CLOCKS = {
    "alias_time.py": "import time as clock\nt = clock.perf_counter()\nimport torch\n"
                     "print('import took over 0.2 s:', clock.perf_counter() - t > 0.2)\n",
    "alias_sys.py": "import sys as s\nprint('torch loaded before import:', 'torch' in s.modules)\n",
    "benchmark.py": "import torch.utils.benchmark as benchmark\n"
                    "print('torch loaded:', type(benchmark.Timer).__name__)\n",
}


def _records(root: Path) -> dict[str, str]:
    out = {}
    for path in sorted((root / "snippets" / "t").glob("*.cpu.txt")):
        record = read_record(path)
        assert record is not None, path
        out[path.name] = record.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The probe's record forked from a warm worker and fresh."""
    outputs = {}
    for way in ("warm", "fresh"):
        root = tmp_path_factory.mktemp(f"state-{way}")
        write(root, "snippets/t/probe.py", PROBE)
        flags = ("--fresh",) if way == "fresh" else ()
        done = run_cli("run", "--jobs", "1", "--progress", "never", *flags, root=root)
        assert done.returncode == 0, done.stdout + done.stderr
        outputs[way] = _records(root)
    return outputs


def test_probe_is_the_same_forked_and_fresh(runs: dict[str, dict[str, str]]) -> None:
    warm, fresh = runs["warm"]["probe.cpu.txt"], runs["fresh"]["probe.cpu.txt"]
    differing = [(w, f) for w, f in zip(warm.splitlines(), fresh.splitlines()) if w != f]
    assert warm == fresh, "\n".join(f"warm:  {w}\nfresh: {f}" for w, f in differing)


def test_probe_is_what_plain_python_prints(runs: dict[str, dict[str, str]], tmp_path: Path) -> None:
    """The lines that do not depend on how the process was started are a plain `python`'s."""
    path = write(tmp_path, "probe.py", PROBE)
    work = tmp_path / "work"
    work.mkdir()
    plain = subprocess.run([sys.executable, str(path)], cwd=work, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120, check=False,
                           stdin=subprocess.DEVNULL).stdout
    wanted = ("main module is", "globals:", "__builtins__:", "__loader__:", "__spec__:",
              "sys.argv", "warning filters:", "onceregistry:", "dynamo counters:",
              "dynamo config:", "inductor loaded:", "grad:", "deterministic:",
              "default dtype", "torch function modes:")
    for line in runs["warm"]["probe.cpu.txt"].splitlines():
        if line.startswith(wanted) and not line.startswith("sys.argv"):
            assert line in plain.splitlines(), line
