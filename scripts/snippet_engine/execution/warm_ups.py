"""What a warm worker does once, before it forks any snippet: import torch and pay the first
export (every kind), the first compile and Inductor's CPU-feature probes (the compile kind), or
nothing at all (CUDA runs). Each warm-up leaves nothing a snippet could see: a forked child must
print what a fresh `python snippet.py` prints. Standard library only, plus torch.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

# The CPU-feature probes the compile warm-up built (`_probe_isas`), copied into each forked
# compile snippet's Inductor cache by the worker; None in the other kinds.
isa_probes: Path | None = None


def warm_up() -> None:
    """Pay the import and first-export cost here, where no snippet code has run yet."""
    try:
        import numpy  # noqa: F401 - every child seeds it; import it once here, not per snippet
    except ImportError:
        pass
    import torch
    import torch.export

    # Not torch._inductor: importing it registers extra decompositions in global tables, and a
    # snippet that prints such a table would then differ from a fresh `python snippet.py`.

    class _Warm(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x.relu() + 1

    # No catch_warnings here: it would also undo the filters that modules imported lazily by this
    # first export (sympy, for one) install, which a fresh process keeps.
    torch.export.export(_Warm(), (torch.ones(2, 3),))
    torch._dynamo.reset()


def _probe_isas() -> Path | None:
    """Build Inductor's CPU-feature probes (`cpu_vec_isa.valid_vec_isa_list`: a small C++ file
    compiled per vector ISA and dlopen-ed, about 8 s here) into a folder of the worker's, and
    return it; None where this torch has no such function.

    A fresh process builds them into its Inductor cache at its first compile, where its own
    subprocesses (a serving process that loads an AOTInductor package) find them. A forked
    snippet never builds them (it has the worker's answer in memory), so each of its
    subprocesses paid the 8 s again; `_spawn` copies them into its empty cache instead. Each is
    named by a hash of its source, the ISA's compiler flags, the compiler's version and torch's
    version, and only says whether this machine can build and load that ISA's code."""
    try:
        from torch._inductor.cpu_vec_isa import valid_vec_isa_list
    except ImportError:
        return None
    folder = Path(tempfile.gettempdir()) / "isa-probes"
    saved = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(folder)  # read on every call (cache_dir())
    try:
        valid_vec_isa_list()  # functools.cache'd: the warm-up's compile and every child reuse it
    finally:
        if saved is None:
            del os.environ["TORCHINDUCTOR_CACHE_DIR"]
        else:
            os.environ["TORCHINDUCTOR_CACHE_DIR"] = saved
    return folder if folder.is_dir() else None


def warm_up_compile() -> None:
    """For snippets that compile: also pay Inductor's import and the one-time work of a first
    compile (about 9 s of a fresh process's first `torch.compile` on 2 cores; later compiles in
    the same process take under 1 s), and leave nothing a snippet could see.

    The compile runs in a throwaway on-disk cache (`fresh_cache`, removed after), with one
    compile thread so that no pool of compile workers is started here (torch resets pools in a
    forked child anyway, so a snippet starts its own, as a fresh process does). Afterwards
    Dynamo's caches, frame numbers and counters, Inductor's in-memory code caches and its
    metrics are reset, and the cache artifacts it recorded are dropped, so compile ids start at
    [0/0], counters at zero and `save_cache_artifacts()` empty in every child.
    """
    warm_up()
    import torch

    try:
        import torch._inductor.compile_fx  # the import is the point
        from torch._inductor import metrics
        from torch._inductor.utils import clear_caches, fresh_cache
        from torch.compiler._cache import CacheArtifactManager
    except (ImportError, AttributeError):
        return  # another torch (a drift run) without these: its snippets just pay the cost
    global isa_probes
    isa_probes = _probe_isas()

    def _warm(x: torch.Tensor) -> torch.Tensor:
        return torch.sin(x) * 3.25 + x.cos().sum(dim=-1, keepdim=True)

    # CacheArtifactManager: the artifacts this compile records for save_cache_artifacts() go to
    # a throwaway collection, or a snippet's "mega-cache" would carry the warm-up's graph too.
    with fresh_cache(), torch._inductor.config.patch(compile_threads=1), \
            CacheArtifactManager.with_fresh_cache():
        torch.compile(_warm)(torch.ones(3, 5))
    torch._dynamo.reset()
    clear_caches()
    torch._dynamo.utils.counters.clear()
    metrics.reset()


def stay_cold() -> None:
    """For CUDA runs: import nothing, touch nothing. On a GPU machine every warm-up above asks
    `torch.cuda.is_available()` (torch._dynamo.reset(), fake tensors) and a compile calls
    `torch.cuda.get_rng_state()` (Dynamo's preserve_global_state), which puts the worker's
    children in torch's bad-fork state: their first CUDA use raises "Cannot re-initialize CUDA
    in forked subprocess". A cold worker's tasks are all fresh (runner.plan), so each snippet
    execs a new interpreter and starts with no CUDA state at all."""


# By the WarmKind the scheduler sets in WARM_UP_VARIABLE.
WARM_UPS: dict[str, Callable[[], None]] = {"export": warm_up, "compile": warm_up_compile,
                                           "cold": stay_cold}
