import torch
from torch._dynamo.backends.common import aot_autograd
from torch._functorch.aot_autograd import make_boxed_func

torch.manual_seed(0)


def f(x, w):
    y = torch.nn.functional.linear(x, w)
    return y.relu().sum()


# A backend is any callable that takes the FX graph Dynamo captured and returns something to run.
def show_dynamo_graph(gm, example_inputs):
    print("Dynamo's FX graph (Torch-level calls):")
    for node in gm.graph.nodes:
        print(f"  {node.op:13} {node.target}")
    return gm.forward  # run the captured graph as it is


# AOTAutograd traces that graph again, down to ATen ops, and splits forward from backward.
def show_aten(name):
    def compiler(gm, example_inputs):
        ops = [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]
        print(f"AOTAutograd {name} graph: {ops}")
        return make_boxed_func(gm.forward)
    return compiler


x = torch.randn(2, 3)
w = torch.randn(4, 3, requires_grad=True)

torch.compile(f, backend=show_dynamo_graph)(x, w)

torch._dynamo.reset()
two_graphs = aot_autograd(fw_compiler=show_aten("forward"), bw_compiler=show_aten("backward"))
out = torch.compile(f, backend=two_graphs)(x, w)
print("forward done, calling backward")
out.backward()
print("w.grad matches eager:", torch.allclose(w.grad, torch.autograd.grad(f(x, w), w)[0]))
