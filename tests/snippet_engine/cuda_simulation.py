"""Installed as `sitecustomize` in the processes of test_cuda_isolation.py: torch as a CUDA build
on a machine with one GPU, as far as what crosses a fork goes. Only torch's C entry points are
faked; torch.cuda's own Python (`is_available`, `_lazy_init`, the queued seeding) runs as is.

What is simulated is what the real CUDA build does (torch/csrc/cuda/Module.cpp): asking the
device count (`torch.cuda.is_available()` does) or initialising CUDA registers a fork handler
that marks every child forked afterwards as a "bad fork", and `torch.cuda._lazy_init()` in such a
child raises "Cannot re-initialize CUDA in forked subprocess". A process that execs a new
interpreter starts with no such mark, as a real one does.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
from types import SimpleNamespace

_state = {"poisoned": False, "bad_fork": False}


def _poison_fork() -> None:
    if not _state["poisoned"]:
        _state["poisoned"] = True
        os.register_at_fork(after_in_child=lambda: _state.update(bad_fork=True))


def _patch(torch) -> None:  # type: ignore[no-untyped-def]
    def device_count() -> int:
        _poison_fork()
        return 1

    def cuda_init() -> None:
        _poison_fork()

    def get_rng_state(device: object = "cuda") -> object:
        torch.cuda._lazy_init()
        return torch.zeros(16, dtype=torch.uint8)

    def set_rng_state(new_state: object, device: object = "cuda") -> None:
        torch.cuda._lazy_init()

    torch._C._cuda_getDeviceCount = device_count
    torch._C._cuda_init = cuda_init
    torch._C._cuda_getCurrentRawStream = lambda device=0: 0  # imported when CUDA is compiled in
    torch._C._cuda_getDevice = lambda: 0
    torch.cuda.get_device_properties = lambda device=None: SimpleNamespace(
        name="Simulated GPU", major=9, minor=0, multi_processor_count=132, warp_size=32,
        total_memory=139 << 30, max_threads_per_multi_processor=2048, gcnArchName="",
        regs_per_multiprocessor=65536, shared_memory_per_block_optin=232448,
        shared_memory_per_multiprocessor=233472, L2_cache_size=50 << 20, clock_rate=1980000)
    torch.cuda._is_in_bad_fork = lambda: _state["bad_fork"]
    torch.cuda._cudart = object()
    torch.cuda.default_generators = (torch.Generator(),)
    torch.cuda.get_rng_state = get_rng_state
    torch.cuda.set_rng_state = set_rng_state


class _PatchTorchOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):  # type: ignore[no-untyped-def]
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        original = spec.loader.exec_module

        def exec_module(module):  # type: ignore[no-untyped-def]
            original(module)
            _patch(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


sys.meta_path.insert(0, _PatchTorchOnImport())
