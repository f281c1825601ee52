import logging

import torch
from torch.export import Dim, draft_export, export


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = torch.nn.Parameter(torch.zeros(128, 16))

    def forward(self, x):
        h = x + self.pos
        return h.mean(1).view(2, 4, 4)


torch.manual_seed(0)
x = torch.randn(2, 128, 16)
spec = {"x": {0: Dim("batch"), 1: Dim("seq")}}

# draft_export does not raise: it records each guard it had to add, with the user line.
ep = draft_export(Encoder(), (x,), dynamic_shapes=spec)
for failure in ep._report.failures:
    frame = failure.data["user_stack"][-1]
    print(failure.failure_type, failure.data["expr"], failure.data["symbol_to_sources"])
    print(f"  line {frame['line']} in {frame['name']}: {frame['loc']}")
print("graph input:", [tuple(n.meta["val"].shape) for n in ep.graph.nodes if n.op == "placeholder"][-1])

# strict=True traces with TorchDynamo, and its error carries a user stack per dimension.
logging.getLogger("torch._guards").setLevel(logging.CRITICAL)  # it also logs the error; skip that
try:
    export(Encoder(), (x,), dynamic_shapes=spec, strict=True)
except torch._dynamo.exc.UserError as e:
    lines = e.msg.splitlines()
    for i, line in enumerate(lines):
        if line.endswith("in forward") and "_dynamo" not in line:
            print("strict=True:", line.split(", ", 1)[1], "->", lines[i + 1].strip())
