#| devices: cpu
import torch
from torch.export import Dim, export
from torch.export.dynamic_shapes import refine_dynamic_shapes_from_suggested_fixes

torch.manual_seed(0)


class Groups(torch.nn.Module):
    def forward(self, x):
        return x.view(-1, 4).sum(1)  # needs len(x) to be a multiple of 4


class Pairs(torch.nn.Module):
    def forward(self, x, y):
        return x + torch.cat([y, y])  # needs len(x) == 2 * len(y)


cases = [
    (Groups(), (torch.randn(8),), {"x": {0: Dim("s")}}),
    (Pairs(), (torch.randn(8), torch.randn(4)), {"x": {0: Dim("dx")}, "y": {0: Dim("dy")}}),
]
for model, args, spec in cases:
    try:
        export(model, args, dynamic_shapes=spec)
    except torch._dynamo.exc.UserError as e:
        print(e.msg)
        refined = refine_dynamic_shapes_from_suggested_fixes(e.msg, spec)
        print("  refined:", refined)
        print("  range_constraints:", export(model, args, dynamic_shapes=refined).range_constraints)
