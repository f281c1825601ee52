import torch
from torch.export import AdditionalInputs, export

torch.manual_seed(0)


class MatMul(torch.nn.Module):
    def forward(self, x, w):
        return x @ w


# Give export several real input sets; dimensions that differ become dynamic.
inputs = AdditionalInputs()
inputs.add((torch.randn(4, 8), torch.randn(8, 3)))
inputs.add((torch.randn(5, 6), torch.randn(6, 3)))

ep = export(MatMul(), (torch.randn(4, 8), torch.randn(8, 3)), dynamic_shapes=inputs)
for node in ep.graph.nodes:
    if node.op == "placeholder":
        print(node.name, tuple(node.meta["val"].shape))
print(ep.range_constraints)
