#| timeout: 240
import os
import tempfile
import time

import torch
from torch._dynamo.utils import counters

torch.manual_seed(0)

cache_dir = tempfile.mkdtemp()
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache_dir  # an empty cache, also under plain python


def f(x):
    return torch.relu(torch.sin(x) * 2 + 1).sum(dim=-1)


x = torch.randn(64, 256)


def compile_and_run():
    torch._dynamo.reset()  # forget every compiled frame: the next call compiles again
    counters.clear()
    start = time.perf_counter()
    torch.compile(f)(x)  # default backend: Inductor
    seconds = time.perf_counter() - start
    inductor = {k: v for k, v in counters["inductor"].items() if k.startswith("fxgraph_cache")}
    aot = {k: v for k, v in counters["aot_autograd"].items() if k.startswith("autograd_cache")}
    print("  Dynamo graphs traced:", counters["stats"]["unique_graphs"])
    print("  inductor:", inductor)
    print("  aot_autograd:", aot)
    return seconds


torch.compile(torch.cos)(x)  # pay Inductor's one-time start-up costs before measuring anything

print("first compile of f, empty cache dir:")
cold = compile_and_run()
print("same process, after torch._dynamo.reset():")
warm = compile_and_run()
print("warm compile at least 5x faster than cold:", cold / warm >= 5)
print("named folders in the cache dir:", [n for n in sorted(os.listdir(cache_dir)) if len(n) > 2])
