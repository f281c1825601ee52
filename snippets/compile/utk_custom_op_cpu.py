#| devices: cpu
#| timeout: 240
import re

import torch
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)


@torch.library.custom_op("demo::scale_add", mutates_args=())
def scale_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.from_numpy(x.numpy() * 2 + y.numpy())  # a CPU kernel Dynamo could not trace


@scale_add.register_fake
def _(x, y):  # shapes and dtypes only, for tracing
    return torch.empty_like(x)


def f(x, y):
    return torch.relu(scale_add(x, y)) * 3


graphs = []


def record(gm, example_inputs):  # Dynamo only: what the graph holds
    graphs.append([getattr(n.target, "__name__", str(n.target)) if not isinstance(n.target, torch._ops.OpOverload)
                   else str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
    return gm.forward


x, y = torch.randn(8), torch.randn(8)
torch.compile(f, backend=record, fullgraph=True)(x, y)  # fullgraph: a graph break would raise
print("Dynamo graph:", graphs[0])

out, codes = run_and_get_code(torch.compile(f, fullgraph=True), x, y)  # Inductor
code = codes[0]
print("Inductor calls the op as:", sorted(set(re.findall(r"torch\.ops\.demo\.\w+\.default", code))))
print("kernels Inductor generated:", re.findall(r"^(\w+) = async_compile", code, flags=re.M))
print("matches eager:", torch.allclose(out, f(x, y)))
