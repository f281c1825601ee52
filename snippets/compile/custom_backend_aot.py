#| devices: cpu
import torch
from functorch.compile import make_boxed_func
from torch._dynamo.backends.common import aot_autograd

torch.manual_seed(0)


def my_compiler(gm, example_inputs):
    """Gets ATen graphs from AOTAutograd: the forward, the backward, or an inference graph."""
    inputs = [n.name for n in gm.graph.find_nodes(op="placeholder")]
    calls = sorted({str(n.target).replace("aten.", "") for n in gm.graph.nodes
                    if n.op == "call_function"})
    print(f"my_compiler: inputs {inputs}")
    print(f"             ops {calls}")
    return make_boxed_func(gm.forward)  # AOTAutograd calls compiled graphs with one list


my_backend = aot_autograd(fw_compiler=my_compiler)  # bw_compiler and inference_compiler default to it


def g(x, w):
    return torch.sin(x @ w).sum()


x = torch.randn(2, 3)
w = torch.randn(3, 3, requires_grad=True)
compiled = torch.compile(g, backend=my_backend)
print("-- first call --")
loss = compiled(x, w)
print("-- backward --")
loss.backward()
print("-- under torch.no_grad() --")
with torch.no_grad():
    compiled(x, w)
