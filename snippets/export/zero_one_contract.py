import torch
from torch.export import Dim, export


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.shape[0] == 1:  # a special case for a batch of one
            return x * 0
        return x * 2


class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


# Traced with a batch of 4, even a named Dim with min=1 does not keep the special case.
ep = export(Gate(), (torch.ones(4, 2),), dynamic_shapes={"x": {0: Dim("batch", min=1)}})
print(ep.range_constraints)
print(ep.graph_module.code.strip())
one = torch.ones(1, 2)
print("eager   :", Gate()(one))
print("exported:", ep.module()(one))  # accepted, but the other branch runs

# Broadcasting: traced with equal batches, the graph assumes neither is 1.
ep = export(Add(), (torch.ones(4, 3), torch.ones(4, 3)), dynamic_shapes=({0: Dim.AUTO}, {0: Dim.AUTO}))
print(ep.range_constraints)
print("eager   :", Add()(torch.ones(1, 3), torch.ones(4, 3)).shape)
try:
    ep.module()(torch.ones(1, 3), torch.ones(4, 3))
except AssertionError as e:
    print("exported:", e)
