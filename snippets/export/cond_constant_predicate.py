import warnings

import torch
from torch.export import Dim

torch.manual_seed(0)


class ByLength(torch.nn.Module):
    def forward(self, x):
        # The predicate reads only the shape of x.
        return torch.cond(x.shape[0] > 4, lambda t: t.cos(), lambda t: t.sin(), (x,))


x = torch.randn(3)

# 1. Static shapes: x.shape[0] > 4 is the plain Python bool False.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ep = torch.export.export(ByLength(), (x,))
print("warning:", caught[0].message)
print(ep.graph_module.code.strip())

# 2. Dynamic dim 0: the predicate is a SymBool, and both branches are kept.
ep = torch.export.export(ByLength(), (x,), dynamic_shapes={"x": {0: Dim.DYNAMIC}})
print(ep.graph_module.code.strip())
print("range constraints:", ep.range_constraints)
