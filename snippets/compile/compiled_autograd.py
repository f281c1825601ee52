#| devices: cpu
import torch
from functorch.compile import make_boxed_func
from torch._dynamo.backends.common import aot_autograd

torch.manual_seed(0)

graphs = []  # one (kind, op names) per graph a compiler was handed


def names(gm):
    return {str(getattr(n.target, "__name__", n.target)) for n in gm.graph.nodes if n.op in ("call_function", "call_method")}


def fw_compiler(gm, example_inputs):
    graphs.append(("AOTAutograd forward", names(gm)))
    return make_boxed_func(gm.forward)


def bw_compiler(gm, example_inputs):
    graphs.append(("AOTAutograd backward", names(gm)))
    return make_boxed_func(gm.forward)


aot_backend = aot_autograd(fw_compiler=fw_compiler, bw_compiler=bw_compiler)


def backend(gm, example_inputs):
    graphs.append(("Dynamo graph", names(gm)))
    return aot_backend(gm, example_inputs)


lin1 = torch.nn.Linear(4, 4)
lin2 = torch.nn.Linear(4, 4)
lin1.weight.register_hook(lambda grad: grad.clamp(-0.1, 0.1))  # a backward hook, registered outside
x = torch.randn(2, 4)


def step(x):
    h = lin1(x).relu()
    torch._dynamo.graph_break()
    loss = lin2(h).sum()
    loss.backward()
    return loss


step(x)
eager_grad = lin1.weight.grad.clone()

for compiled_autograd in (False, True):
    torch._dynamo.reset()
    torch._dynamo.config.compiled_autograd = compiled_autograd  # read when torch.compile is called
    graphs.clear()
    lin1.zero_grad()
    lin2.zero_grad()
    torch.compile(step, backend=backend)(x)
    print(f"compiled_autograd={compiled_autograd}:")
    for kind, ops in graphs:
        print(f"  {kind}: {sorted(ops)[:6]}")
    print(f"  lin1.weight.grad matches eager (hook applied): {torch.equal(lin1.weight.grad, eager_grad)}")
