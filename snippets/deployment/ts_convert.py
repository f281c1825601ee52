#| devices: cpu
import warnings

import torch
from torch._export.converter import TS2EPConverter  # a private module in 2.13

torch.manual_seed(0)

warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.* says it is deprecated


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        for _ in range(3):  # a constant trip count
            x = torch.relu(self.fc(x))
        return x


# Two legacy artifacts, as a team moving off TorchScript has them: traced and scripted.
x = torch.randn(2, 4)
torch.jit.save(torch.jit.trace(Block(), (x,)), "traced.pt")
torch.jit.save(torch.jit.script(Block()), "scripted.pt")

for path in ["traced.pt", "scripted.pt"]:
    legacy = torch.jit.load(path)
    ep = TS2EPConverter(legacy, (x,)).convert()
    ops = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    print(f"{path}: {type(ep).__name__}, ops {ops}")
    print("  parameters:", list(ep.state_dict))
    print("  same output as TorchScript on the example:", torch.allclose(ep.module()(x), legacy(x)))
    print("  ranges of its sizes:", [str(r) for r in ep.range_constraints.values()])
    for batch in (5, 1):
        try:
            ep.module()(torch.randn(batch, 4))
            print(f"  batch {batch}: ran")
        except AssertionError as e:
            print(f"  batch {batch}: {type(e).__name__} - {e}")

torch.export.save(ep, "scripted.pt2")  # the migration ends in an ExportedProgram archive
print("reloaded .pt2 matches:", torch.allclose(torch.export.load("scripted.pt2").module()(x), legacy(x)))
