#| devices: cpu
import torch
from torch._subclasses import FakeTensor

torch.manual_seed(0)


def inspecting_backend(gm, example_inputs):
    """A backend: takes the captured GraphModule and example inputs, returns a callable."""
    print(f"backend called: {type(gm).__name__}")
    print("  example inputs:", [f"{type(a).__name__}{list(a.shape)}" for a in example_inputs])
    placeholders = gm.graph.find_nodes(op="placeholder")
    print("  fake in node.meta['example_value']:",
          all(isinstance(p.meta["example_value"], FakeTensor) for p in placeholders))
    print("  calls:", [getattr(n.target, "__name__", str(n.target))
                      for n in gm.graph.nodes if n.op in ("call_function", "call_method")])
    return gm.forward  # run the graph as captured


def f(x, w):
    y = torch.sin(x @ w)
    print("-- graph break: print() runs in Python --")
    return y.relu().sum()


x = torch.randn(2, 3)
w = torch.randn(3, 3, requires_grad=True)
loss = torch.compile(f, backend=inspecting_backend)(x, w)
loss.backward()
grad = w.grad.clone()
w.grad = None
torch.sin(x @ w).relu().sum().backward()  # the same computation in eager
print("w.grad matches eager:", torch.allclose(grad, w.grad))
