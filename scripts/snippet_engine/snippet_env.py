"""The environment a snippet runs with, described once: an allow-list, never the recording shell's.

A record must read as a fresh `python snippet.py` prints it in a clean login shell, whatever the
shell that records it has set: `PYTHONDEVMODE=1` shows warnings a clean shell hides,
`TORCH_SHOW_CPP_STACKTRACES=1` adds C++ traces, `PYTHONOPTIMIZE` drops asserts. A deny-list can
never name them all, so the worker's environment is built from nothing: the few variables a login
shell sets (who and where the user is, where programs are, for the C++ compiler AOTInductor
runs), then what the engine sets itself. Everything else the recording shell has is left out.

`TORCH_VARIABLE_PREFIXES` is the other half of the same question, asked of the snippet's source
(`analysis.torch_environment_line`): the variables torch and its compilers read when first
imported, which a snippet may set before `import torch`.

Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

SCRIPTS_DIR = str(Path(__file__).resolve().parent.parent)

# What a clean login shell has (login(1) and sshd set these; /etc/profile sets PATH): kept from
# the recording shell. PATH finds the C++ compiler; HOME, torch's per-user folders; TMPDIR is
# replaced by the engine's own folder (`worker_env`).
LOGIN_SHELL = ("HOME", "USER", "LOGNAME", "SHELL", "PATH")
# Kept for a CUDA run only: which GPU to use and where its driver libraries are. On a CPU run
# CUDA is hidden instead.
CUDA_MACHINE = ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "CUDA_HOME")
# What the engine sets for every snippet (the worker adds the per-snippet ones: SNIPPET_DEVICE,
# TMPDIR, the Inductor and Triton cache folders, a rendezvous port).
ENGINE_SET: dict[str, str] = {
    "PYTHONPATH": SCRIPTS_DIR,  # the worker imports the engine from here
    "PYTHONHASHSEED": "0",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "COLUMNS": "100",
}

# Variables that torch and its compilers read, many of them once, at import.
TORCH_VARIABLE_PREFIXES = ("TORCH", "PYTORCH_", "TRITON_", "TORCHDYNAMO_", "TORCHINDUCTOR_",
                           "TORCH_COMPILE_", "CUDA_", "OMP_", "MKL_")


# A second CPU capability to run a snippet under, as if on another machine (`snippets.py verify
# --cpu-capability`): a record must not depend on the CPU that made it. Torch's own kernels pick
# their vector width from ATEN_CPU_CAPABILITY (Inductor's C++ kernels follow it too,
# torch/_inductor/cpu_vec_isa.py); MKL (matmul, linear) and oneDNN (convolution) read their own
# variables. All three are read once, when the library loads: only a process started with them
# runs under them, so they go into the worker's environment, never into a forked snippet's.
# `default` is no vector unit at all: on an AVX2-only host it is the only other capability.
CPU_CAPABILITIES: dict[str, dict[str, str]] = {
    "avx2": {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2",
             "ONEDNN_MAX_CPU_ISA": "AVX2"},
    "default": {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
                "ONEDNN_MAX_CPU_ISA": "SSE41"},
}


def host_has_avx512(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Whether this CPU has AVX-512 (the `avx512f` flag), read without importing torch."""
    try:
        with open(cpuinfo, encoding="utf-8") as fh:
            return any(line.startswith("flags") and "avx512f" in line.split() for line in fh)
    except OSError:
        return False


def second_capability(cpuinfo: str = "/proc/cpuinfo") -> str | None:
    """The capability `--cpu-capability second` means: AVX2 on an AVX-512 host (the commonest
    other machine: its vectors are half as wide, so reductions and softmax add in another
    order); None, the host's own, anywhere else. An AVX2 host is already the other machine of
    records made with AVX-512, and `default` (no vectors) is no machine anyone records on: it
    also changes what Inductor generates (no at::vec, flex attention does not compile), so
    records would have to give up far more than the last digits to pass it. (On ARM, avx2 is
    not a value torch accepts.)"""
    return "avx2" if host_has_avx512(cpuinfo) else None


def worker_env(device: str, tmpdir: str | None = None,
               shell: Mapping[str, str] | None = None,
               cpu_capability: str | None = None) -> dict[str, str]:
    """The environment of a warm worker, and so of every snippet it forks or starts.

    `tmpdir`: the folder the worker makes the snippets' temporary folders in (the coordinator
    removes it with the worker, however the run ends); `shell`: the recording shell's
    environment, `os.environ` by default; `cpu_capability`: a name in CPU_CAPABILITIES to run
    under instead of the host's own (None: the host's)."""
    shell = os.environ if shell is None else shell
    kept = LOGIN_SHELL + (CUDA_MACHINE if device == "cuda" else ())
    env = {name: shell[name] for name in kept if name in shell}
    env.setdefault("PATH", os.defpath)
    env.update(ENGINE_SET)
    if tmpdir is not None:
        env["TMPDIR"] = tmpdir
    elif "TMPDIR" in shell:
        env["TMPDIR"] = shell["TMPDIR"]
    if device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""  # a CPU record is a CPU record, even on a GPU machine
    if cpu_capability is not None:
        env.update(CPU_CAPABILITIES[cpu_capability])
    return env
