import torch
from torch.export import Dim, export

torch.manual_seed(0)


class Project(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(8, 3))

    def forward(self, x):  # x: (batch, 8); the weight fixes x.shape[1] to 8
        return x @ self.w


x = torch.randn(4, 8)
specs = {
    "(no spec)": None,
    "Dim.AUTO": {0: Dim.AUTO, 1: Dim.AUTO},
    "Dim.STATIC": {0: Dim.STATIC, 1: Dim.STATIC},
    "Dim.DYNAMIC": {0: Dim.DYNAMIC, 1: Dim.DYNAMIC},
    "named Dims": {0: Dim("batch"), 1: Dim("feat")},
}
for label, spec in specs.items():
    try:
        ep = export(Project(), (x,), dynamic_shapes={"x": spec} if spec else None)
        shape = [tuple(n.meta["val"].shape) for n in ep.graph.nodes if n.op == "placeholder"][-1]
        print(f"{label:12} x: {shape}  {ep.range_constraints}")
    except torch._dynamo.exc.UserError as e:
        print(f"{label:12} {type(e).__name__}")
        for line in e.msg.splitlines()[1:]:
            print("   ", line.strip().split(". If")[0])
