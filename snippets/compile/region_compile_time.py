#| timeout: 240
import os
import tempfile
import time

import torch
from torch._dynamo.utils import counters
from torch._inductor.utils import clear_caches

torch.manual_seed(0)

N = 8  # identical blocks


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(64, 64)

    def forward(self, x):
        return x + torch.nn.functional.gelu(self.lin(x)) * torch.sigmoid(x)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Linear(64, 64)
        self.blocks = torch.nn.ModuleList(Block() for _ in range(N))

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return x


def start_clean():
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()  # an empty Inductor cache
    clear_caches()
    torch._dynamo.reset()
    counters.clear()


def first_call_seconds(fn, x):
    start = time.perf_counter()
    fn(x)  # the first call compiles
    return time.perf_counter() - start


x = torch.randn(8, 64)
start_clean()
first_call_seconds(torch.compile(torch.cos), x)  # pay one-time Inductor start-up costs here

start_clean()
whole = Model()
compiled_whole = torch.compile(whole)
whole_s = first_call_seconds(compiled_whole, x)  # default backend: Inductor
print(f"whole model: graphs compiled {counters['stats']['unique_graphs']}, "
      f"Inductor cache misses {counters['inductor']['fxgraph_cache_miss']}")

start_clean()
regional = Model()
expected = regional(x)  # eager, before anything is compiled
for block in regional.blocks:
    block.compile()  # nn.Module.compile: compile this block's forward in place
regional_s = first_call_seconds(regional, x)
print(f"each block compiled: graphs compiled {counters['stats']['unique_graphs']}, "
      f"Inductor cache misses {counters['inductor']['fxgraph_cache_miss']}")

print("regional compile was faster:", regional_s < whole_s)
print("whole model compiled matches eager:", torch.allclose(compiled_whole(x), whole(x), atol=1e-6))
print("regional model matches eager:", torch.allclose(regional(x), expected, atol=1e-6))
