"""One folder of precompiled C++ headers for a whole run, instead of one per worker or snippet.

Every AOTInductor compile (and every C++ kernel `torch.compile` builds on CPU) first precompiles
torch's common headers (`torch._inductor.codecache._precompile_header`): g++ turns them into
`.gch` files, two for the first AOTInductor snippet, 10 to 15 s of one core here. torch puts
them in `_HEADER_DIR`, `<TMPDIR>/torchinductor_<user>/precompiled_headers`, fixed when
`torch._inductor.codecache` is first imported, and reuses a header found there. The engine gives
every worker and every snippet a TMPDIR of its own, so without this module each worker paid for
the headers again (and a fresh snippet paid for them every time).

Here the coordinator makes one folder per run (`WorkerPool`), and every worker and every snippet's
TMPDIR gets `torchinductor_<user>/precompiled_headers` as a link to it: a forked snippet reaches it
through the worker's `_HEADER_DIR` (fixed when the worker imported Inductor), a fresh one through
its own TMPDIR. The path torch computes, and so anything a snippet could print, is the same
string as without the link. Only that one folder is shared: the rest of `torchinductor_<user>`
(and the snippet's own Inductor cache, TORCHINDUCTOR_CACHE_DIR) stays the snippet's own.

Why sharing cannot change a record: a precompiled header is only an on-disk form of
`#include <header>`. torch names it by a hash of the hashable compiler command line, the sha512
of the fully preprocessed header and the compiler's version, so a header built for other flags,
other torch headers or another compiler is never picked up, and g++ itself refuses (and falls
back to the plain header) a `.gch` built with options that do not match. The compiled model is
the same either way; only the time to build it changes. torch builds each header under a file
lock in the same folder (`locks/`) and skips one that exists, so two workers never build the same
one at once.

What one snippet could still leave behind for the next: a `.gch` half-written by a compiler that
was killed (the snippet's timeout, a crash, a compile still running when the snippet ended).
`prune_since` removes every `.gch` (clang: `.pch`) written during such a snippet, so the next
one builds it again (the lock files stay: removing one another worker holds would let two
builds race).

Standard library only: the worker imports this before torch.
"""

from __future__ import annotations

import getpass
import os
import re
from pathlib import Path

# The coordinator tells a worker the run's folder in this variable; the worker takes it out of
# its environment before anything else, so no snippet sees it.
HEADERS_VARIABLE = "SNIPPET_SHARED_HEADERS"
# What a header precompiles to: g++ writes `.gch`, clang `.pch` (cpp_builder.CppBuilder).
PRECOMPILED = (".gch", ".pch")


def _user_folder() -> str:
    """`torchinductor_<user>`, named as `torch._inductor.runtime.cache_dir_utils.
    default_cache_dir` names it (copied, since the worker must not import Inductor to ask)."""
    try:
        username = getpass.getuser()
    except (KeyError, ModuleNotFoundError, OSError):
        username = f"uid_{os.getuid()}"
    return "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", username)


def header_dir(tmpdir: str | Path) -> Path:
    """Where torch, with this TMPDIR, looks for precompiled headers (its `_HEADER_DIR`)."""
    return Path(tmpdir) / _user_folder() / "precompiled_headers"


def link_shared_headers(tmpdir: str | Path, shared: str | Path) -> None:
    """Make torch's header folder under `tmpdir` a link to the run's `shared` folder."""
    link = header_dir(tmpdir)
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.is_symlink():
        link.symlink_to(shared, target_is_directory=True)


def prune_since(shared: str | Path, since: float) -> list[Path]:
    """Remove the precompiled headers written at or after `since` (time.time()): what a compile
    that was killed may have left half-written. Returns what was removed."""
    removed = []
    for built in Path(shared).rglob("*"):
        if built.suffix not in PRECOMPILED:
            continue
        try:
            if built.stat().st_mtime >= since:
                built.unlink()
                removed.append(built)
        except FileNotFoundError:
            pass
    return removed
