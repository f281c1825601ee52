#| devices: cpu
import torch
from functorch.compile import make_boxed_func
from torch._functorch.aot_autograd import aot_module_simplified

torch.manual_seed(0)


def describe(node):  # a saved tensor with its shape, or a saved size with its value
    v = node.meta["val"]
    return f"{node.name}{list(v.shape)}" if isinstance(v, torch.Tensor) else f"{node.name}={v}"


def fw_compiler(gm, example_inputs):
    print("    fw_compiler called")
    return make_boxed_func(gm.forward)


def bw_compiler(gm, example_inputs):
    print("    bw_compiler called; backward inputs:",
          [describe(n) for n in gm.graph.find_nodes(op="placeholder")])
    return make_boxed_func(gm.forward)


def backend(gm, example_inputs):
    return aot_module_simplified(gm, example_inputs, fw_compiler=fw_compiler,
                                 bw_compiler=bw_compiler)


model = torch.nn.Linear(4, 3)


def step(x):
    return torch.sin(model(x)).sum()


for dynamic in (False, True):
    torch._dynamo.reset()
    print(f"dynamic={dynamic}:")
    compiled = torch.compile(step, backend=backend, dynamic=dynamic)
    loss = compiled(torch.randn(2, 4))
    print("    forward ran")
    loss.backward()
    print("    backward ran")
