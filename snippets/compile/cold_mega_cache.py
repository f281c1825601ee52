#| timeout: 240
import os
import subprocess
import sys
import tempfile

import torch
from torch._dynamo.utils import counters

torch.manual_seed(0)

# Process B: a fresh python with an empty cache dir that loads the artifacts, then compiles.
LOAD = r'''
import sys, torch
from torch._dynamo.utils import counters
info = torch.compiler.load_cache_artifacts(open(sys.argv[1], "rb").read())
print("B: artifacts loaded:", {kind: len(keys) for kind, keys in info.artifacts.items()})


def f(x, w):
    return torch.relu(x @ w).sum(-1)


torch.compile(f)(torch.ones(8, 16), torch.ones(16, 4))
print("B: graphs Dynamo traced:", counters["stats"]["unique_graphs"])
print("B: AOTAutograd cache:", {k: v for k, v in counters["aot_autograd"].items() if k.startswith("autograd_cache")})
print("B: FX graph cache:", {k: v for k, v in counters["inductor"].items() if k.startswith("fxgraph_cache")})
'''


def f(x, w):
    return torch.relu(x @ w).sum(-1)


torch.compile(f)(torch.randn(8, 16), torch.randn(16, 4))
print("A: graphs Dynamo traced:", counters["stats"]["unique_graphs"])
print("A: FX graph cache:", {k: v for k, v in counters["inductor"].items() if k.startswith("fxgraph_cache")})
artifact_bytes, info = torch.compiler.save_cache_artifacts()
path = os.path.join(tempfile.mkdtemp(), "cache.bin")
with open(path, "wb") as file:
    file.write(artifact_bytes)
print("A: artifacts saved:", {kind: len(keys) for kind, keys in info.artifacts.items()})

fresh_cache = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=tempfile.mkdtemp())  # B starts with nothing cached
b = subprocess.run([sys.executable, "-c", LOAD, path], env=fresh_cache, capture_output=True, text=True)
print(b.stdout, end="")
