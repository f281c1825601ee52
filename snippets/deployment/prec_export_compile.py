#| devices: cpu
#| timeout: 240
import collections
import copy

import torch
from torch.utils.benchmark import Timer

torch.manual_seed(0)

model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.GELU(), torch.nn.Linear(256, 16)).eval()
x = torch.randn(32, 256)
with torch.no_grad():
    ref = model(x)


def error_class(y):
    rel = ((y.float() - ref).norm() / ref.norm()).item()
    return "< 0.1%" if rel < 1e-3 else "0.1% to 1%" if rel < 1e-2 else ">= 1%"


for dt in (torch.bfloat16, torch.float16):
    m = copy.deepcopy(model).to(dt)
    xd = x.to(dt)
    ep = torch.export.export(m, (xd,))
    dtypes = collections.Counter(
        str(n.meta["val"].dtype) for n in ep.graph.nodes if isinstance(n.meta.get("val"), torch.Tensor)
    )
    print(f"{dt}:")
    print("  export graph value dtypes:", dict(dtypes))
    with torch.no_grad():
        print("  eager error vs fp32:   ", error_class(m(xd)))
        print("  exported error vs fp32:", error_class(ep.module()(xd)))
        compiled = torch.compile(m)  # Inductor, the default backend
        print("  compiled error vs fp32:", error_class(compiled(xd)))


def best_time(fn, arg):
    with torch.no_grad():
        return min(Timer("f(a)", globals={"f": fn, "a": arg}).blocked_autorange(min_run_time=0.2).median
                   for _ in range(3))


t32 = best_time(model, x)
for dt in (torch.bfloat16, torch.float16):
    ratio = best_time(copy.deepcopy(model).to(dt), x.to(dt)) / t32
    # Slower at all, not by how much: bf16 eager is under 2x fp32's time on an AVX-512 CPU with
    # bf16 instructions and over 10x on an AVX2 one; the record must not depend on the CPU.
    print(f"eager {str(dt)[6:]}, one thread: slower than fp32: {ratio > 1}")
