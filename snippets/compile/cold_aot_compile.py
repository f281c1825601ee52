#| timeout: 240
import os
import subprocess
import sys
import tempfile

import torch

torch.manual_seed(0)

# Process B: a fresh python that loads the saved function and never compiles it.
LOAD = r'''
import os, re, sys, torch
from torch._dynamo.utils import counters
fn = torch.compiler.load_compiled_function(open(sys.argv[1], "rb"))
w = torch.ones(16, 4)
print("B: result:", fn(torch.ones(8, 16), w)[:2].tolist())
print("B: graphs Dynamo traced:", counters["stats"]["unique_graphs"])
print("B: Inductor counters:", dict(counters["inductor"]))
cache = os.environ["TORCHINDUCTOR_CACHE_DIR"]
built = [n for r, _, ns in os.walk(cache) for n in ns if n.endswith(".so")  # not the CPU-feature probes
         and re.search(r"void\s+kernel\(", open(os.path.join(r, n[:-3] + ".cpp")).read())]
print("B: generated C++ kernels compiled in its empty cache dir:", len(built))
try:
    fn(torch.ones(8, 16, dtype=torch.float64), w)
except RuntimeError as e:
    print("B: a float64 input:", str(e).splitlines()[0])
    print("   ", [line.strip() for line in str(e).splitlines() if "mismatch" in line][0])
torch.set_num_threads(torch.get_num_threads() + 1)  # torch's global state is guarded too
try:
    fn(torch.ones(8, 16), w)
except RuntimeError as e:
    print("B: another thread count:", [line.strip() for line in str(e).splitlines() if "GLOBAL_STATE" in line][0])
'''


def f(x, w):
    return torch.relu(x @ w).sum(-1)


x, w = torch.randn(8, 16), torch.randn(16, 4)
compiled = torch.compile(f, fullgraph=True).aot_compile(((x, w), {}))  # (args, kwargs)
print("A: aot_compile returned", type(compiled).__name__)
path = os.path.join(tempfile.mkdtemp(), "f.bin")
compiled.save_compiled_function(path)
print("A: saved to a file:", os.path.getsize(path) > 0)

fresh_cache = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=tempfile.mkdtemp())  # B starts with nothing cached
b = subprocess.run([sys.executable, "-c", LOAD, path], env=fresh_cache, capture_output=True, text=True)
print(b.stdout, end="")

try:
    torch.compile(f).aot_compile(((x, w), {}))  # without fullgraph=True
except RuntimeError as e:
    print("A: without fullgraph:", e)
