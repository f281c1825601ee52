#| timeout: 240
import os
import tempfile
import time

import torch
from torch._dynamo.utils import counters, guard_failures
from torch.utils.benchmark import Timer

torch.manual_seed(0)

os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()  # cold cache, also under plain python
torch.set_num_threads(2)  # pinned, so that this record is the same on every machine


def f(x):
    return torch.relu(torch.sin(x) * 2 + torch.cos(x) - 1) * 0.5  # six pointwise ops


x = torch.randn(1_000_000)
compiled = torch.compile(f)  # default backend: Inductor
print("graphs compiled by torch.compile() itself:", counters["stats"]["unique_graphs"])


def seconds(fn):
    start = time.perf_counter()
    fn(x)
    return time.perf_counter() - start


first = seconds(compiled)  # traces, compiles, then runs
second = seconds(compiled)
print("first call more than 100x slower than the second:", first / second > 100)


def graphs_compiled_by(measure):
    before = counters["stats"]["unique_graphs"]
    result = measure()
    return counters["stats"]["unique_graphs"] - before, result


n, _ = graphs_compiled_by(lambda: Timer("g(x)", globals={"g": compiled, "x": x}).blocked_autorange())
print("Timer() with its default num_threads=1: graphs compiled inside it:", n)
print("  why:", [reason.strip() for reason in guard_failures[f.__code__]])

n, compiled_m = graphs_compiled_by(lambda: Timer(
    "g(x)", globals={"g": compiled, "x": x}, num_threads=2).blocked_autorange(min_run_time=1))
print("Timer(num_threads=2): graphs compiled inside it:", n)
# Which median is lower is left out: on a machine shared with other jobs it flips between runs.

seen = []
for threads in (1, 2):
    Timer("seen.append(torch.get_num_threads())", globals={"seen": seen}, num_threads=threads).timeit(1)
print("torch.get_num_threads() inside Timer(num_threads=1) and (num_threads=2):", sorted(set(seen)))
