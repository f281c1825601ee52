import torch
from torch.export import Dim, export
from torch.export.dynamic_shapes import refine_dynamic_shapes_from_suggested_fixes

torch.manual_seed(0)


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = torch.nn.Parameter(torch.zeros(128, 16))

    def forward(self, x):
        h = x + self.pos[: x.shape[1]]  # take as many positions as the input has
        return h.mean(1).view(-1, 4, 4)  # let the batch follow the input


class MatMul(torch.nn.Module):
    def forward(self, x, w):
        return x @ w


def export_refined(model, args, spec):
    try:
        return export(model, args, dynamic_shapes=spec)
    except torch._dynamo.exc.UserError as e:
        print(e.msg)
        try:
            refine_dynamic_shapes_from_suggested_fixes(str(e), spec)  # str(e) has a note appended
        except ValueError as bad:
            print("  str(e) ->", type(bad).__name__)
        spec = refine_dynamic_shapes_from_suggested_fixes(e.msg, spec)  # e.msg parses
        print("  refined:", spec)
        return export(model, args, dynamic_shapes=spec)


ep = export_refined(Encoder(), (torch.randn(2, 128, 16),), {"x": {0: Dim("batch"), 1: Dim("seq")}})
print("  range_constraints:", ep.range_constraints)
print("  batch 3, seq 50 ->", tuple(ep.module()(torch.randn(3, 50, 16)).shape))

k, n = Dim("k"), Dim("n")
ep = export_refined(MatMul(), (torch.randn(4, 8), torch.randn(8, 3)), {"x": {1: k}, "w": {0: n}})
print("  range_constraints:", ep.range_constraints)
