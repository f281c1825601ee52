import torch
from torch.export import Dim, export

torch.manual_seed(0)


class MaskedMean(torch.nn.Module):
    def forward(self, tokens, mask):  # tokens: (batch, seq, 8), mask: (batch, seq)
        m = mask.unsqueeze(-1)
        return (tokens * m).sum(1) / m.sum(1).clamp(min=1)


batch = Dim("batch", max=64)
seq = Dim("seq", min=4, max=512)
# The same Dim object on two inputs says "these sizes are equal".
dynamic_shapes = {"tokens": {0: batch, 1: seq}, "mask": {0: batch, 1: seq}}
example = (torch.randn(2, 16, 8), torch.ones(2, 16))
ep = export(MaskedMean(), example, dynamic_shapes=dynamic_shapes)

for node in ep.graph.nodes:
    if node.op == "placeholder":
        print(node.name, tuple(node.meta["val"].shape))
print("range_constraints:", ep.range_constraints)

m = ep.module()
print("batch 3, seq 100 ->", tuple(m(torch.randn(3, 100, 8), torch.ones(3, 100)).shape))
for tokens, mask in [
    (torch.randn(3, 600, 8), torch.ones(3, 600)),  # seq above max
    (torch.randn(3, 100, 8), torch.ones(3, 99)),   # seq differs between inputs
    (torch.randn(3, 100, 5), torch.ones(3, 100)),  # a static dimension changed
]:
    try:
        m(tokens, mask)
    except AssertionError as e:
        print(e)
