#| timeout: 240
import os
import tempfile

import torch
from torch._dynamo.utils import counters
from torch._inductor.utils import clear_caches

torch.manual_seed(0)


def use_cache_dir(path):
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = path
    clear_caches()  # drop Inductor's in-memory caches that remember the old dir


def files_ending(path, suffix):
    return sum(name.endswith(suffix) for _, _, names in os.walk(path) for name in names)


def f(x):
    return torch.relu(torch.sin(x) * 2 + 1).sum(dim=-1)


def compile_and_run():
    torch.compile(f)(x)  # default backend: Inductor
    print("  inductor:", {k: v for k, v in counters["inductor"].items() if k.startswith("fxgraph_cache")})
    print("  aot_autograd:", {k: v for k, v in counters["aot_autograd"].items() if k.startswith("autograd_cache")})


x = torch.randn(64, 256)

print("A: compile with an empty cache dir, then save the artifacts")
use_cache_dir(tempfile.mkdtemp())
compile_and_run()
artifact_bytes, info = torch.compiler.save_cache_artifacts()
print("  save_cache_artifacts() returned", type(artifact_bytes).__name__, "and", type(info).__name__)
print("  artifacts saved:", {kind: len(keys) for kind, keys in info.artifacts.items()})

print("B: a second empty cache dir and no compiled frames; load the bytes, then compile")
fresh = tempfile.mkdtemp()
use_cache_dir(fresh)
torch._dynamo.reset()
counters.clear()
loaded = torch.compiler.load_cache_artifacts(artifact_bytes)
print("  artifacts loaded:", {kind: len(keys) for kind, keys in loaded.artifacts.items()})
print("  folders the load wrote:", sorted(os.listdir(fresh)), "with .so files:", files_ending(fresh, ".so"))
compile_and_run()
print("  .so files after the compile:", files_ending(fresh, ".so"))
