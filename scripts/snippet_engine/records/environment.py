"""What the snippets run on: versions and hardware, found without importing torch here.

The coordinating process must not import torch (a run with nothing to do finishes in about a
second) and must never initialise CUDA (children forked from a process that did cannot use it), so
the torch version comes from package metadata and the GPU is probed in a throwaway subprocess.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from functools import cache

from snippet_engine.errors import ProjectError
from snippet_engine.records.pins import release


class DeviceUnavailable(ProjectError, RuntimeError):
    """The requested device is not usable on this machine."""


@dataclass(frozen=True)
class Environment:
    device: str  # "cpu" or "cuda"
    torch_version: str  # as installed, e.g. "2.13.0+cpu"
    python_version: str  # e.g. "3.11.7"
    hardware: str  # CPU model, or "GPU name, CUDA x.y"

    @property
    def torch_base(self) -> str:
        """The release without its local build tag: a CPU and a CUDA wheel of 2.13.0 agree."""
        return release(self.torch_version)

    @property
    def python_minor(self) -> str:
        return ".".join(self.python_version.split(".")[:2])


@cache
def torch_version() -> str:
    """The installed torch's version, read once a process: reading its metadata file costs about
    6 ms, and a site build asks for it once for each record's state (2,180 times in a profile of
    2026-12-07, 13 s of the build). A torch installed while a process runs is not the one its warm
    workers imported either: a new process reads it again."""
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        raise DeviceUnavailable(
            "torch is not installed in this interpreter "
            f"({sys.executable}); install the pinned one: pip install -r requirements.txt"
        ) from None


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


_CUDA_PROBE = """
import json, torch
ok = torch.cuda.is_available()
print(json.dumps({
    "available": ok,
    "torch_cuda": torch.version.cuda,
    "name": torch.cuda.get_device_name(0) if ok else None,
}))
"""


def probe_cuda(python: str = sys.executable, timeout: float = 120.0) -> str:
    """Return "GPU name, CUDA x.y" or raise DeviceUnavailable with the reason."""
    env = dict(os.environ)
    try:
        done = subprocess.run([python, "-c", _CUDA_PROBE], capture_output=True, text=True,
                              timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        raise DeviceUnavailable(f"probing CUDA took over {timeout:.0f} s; is the driver hung?") from None
    if done.returncode != 0:
        raise DeviceUnavailable(f"probing CUDA failed:\n{done.stderr.strip()[-2000:]}")
    info = json.loads(done.stdout.strip().splitlines()[-1])
    if not info["available"]:
        build = info["torch_cuda"]
        why = (f"torch {torch_version()} is a CPU-only build" if build is None
               else f"torch was built for CUDA {build} but no usable GPU or driver was found")
        raise DeviceUnavailable(
            f"--device cuda needs a CUDA GPU, and none is usable here: {why}. "
            "Run this on a GPU machine with the CUDA wheel of the pinned torch "
            "(see CONTRIBUTING.md, 'Recording CUDA outputs'); nothing was written."
        )
    return f"{info['name']}, CUDA {info['torch_cuda']}"


_DESCRIBE = """
import importlib.metadata, json, platform
print(json.dumps({"torch": importlib.metadata.version("torch"),
                  "python": platform.python_version()}))
"""


def describe_interpreter(python: str, device: str = "cpu") -> Environment:
    """The environment another interpreter gives (a drift run's venv), asked in a subprocess."""
    try:
        done = subprocess.run([python, "-c", _DESCRIBE], capture_output=True, text=True,
                              timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DeviceUnavailable(f"cannot run the interpreter {python}: {exc}") from None
    if done.returncode != 0:
        raise DeviceUnavailable(f"the interpreter {python} has no usable torch:\n"
                                f"{done.stderr.strip()[-1500:]}")
    info = json.loads(done.stdout.strip().splitlines()[-1])
    return Environment(device=device, torch_version=info["torch"], python_version=info["python"],
                       hardware=cpu_model())


def detect(device: str) -> Environment:
    hardware = probe_cuda() if device == "cuda" else cpu_model()
    return Environment(device=device, torch_version=torch_version(),
                       python_version=platform.python_version(), hardware=hardware)
