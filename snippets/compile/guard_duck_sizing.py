import torch
from torch._dynamo.utils import guard_failures

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append([tuple(n.meta["example_value"].shape) for n in gm.graph.nodes
                   if n.op == "placeholder" and isinstance(n.meta.get("example_value"), torch.Tensor)])
    return gm.forward


def f(x, y):
    return x.sum() + y.sum()


compiled = torch.compile(f, backend=counting_backend, dynamic=True)
compiled(torch.ones(5), torch.ones(5))  # equal sizes
print("sizes 5 and 5 -> input shapes", graphs[-1])
compiled(torch.ones(7), torch.ones(7))
print("sizes 7 and 7 -> graphs so far", len(graphs))
compiled(torch.ones(5), torch.ones(6))  # no longer equal
print("sizes 5 and 6 -> input shapes", graphs[-1])
print("recompile reason:", [r for rs in guard_failures.values() for r in rs])
