import torch
from torch.export import Dim, export

torch.manual_seed(0)


class Positives(torch.nn.Module):
    def forward(self, x):
        if x.shape[0] > 4:  # a backed size: decided from the example, kept as a guard
            x = x * 10
        kept = x[x > 0]  # how many survive depends on the values
        count = (x > 0).sum()
        # A tensor predicate instead of `if count.item() > 2:` keeps Python out of it.
        scale = torch.where(count > 2, 2.0, 1.0)
        return kept * scale


ep = export(Positives(), (torch.randn(8),), dynamic_shapes={"x": {0: Dim.AUTO}})
for node in ep.graph.nodes:
    if node.op == "placeholder" or node.target == torch.ops.aten.index.Tensor:
        print(f"{node.name:6} {node.target}  shape={tuple(node.meta['val'].shape)}")
print("range_constraints:", ep.range_constraints)

x = torch.tensor([1.0, -1.0, 2.0, 3.0, -4.0])
print(ep.module()(x), Positives()(x))
try:
    ep.module()(x[:3])  # a size the `if` above was not traced for
except AssertionError as e:
    print(e)
