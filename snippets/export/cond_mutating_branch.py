import logging

import torch

# Hide a log line that export's error classifier prints for each failed export.
logging.getLogger("torch.export").setLevel(logging.CRITICAL)


class M(torch.nn.Module):
    def forward(self, x):
        def add_one_in_place(x):
            x.add_(1)  # writes to the operand
            return x.sin()

        return torch.cond(x.sum() > 0, add_one_in_place, lambda x: x.cos(), (x,))


torch.manual_seed(0)
for grad in (True, False):
    with torch.set_grad_enabled(grad):
        try:
            ep = torch.export.export(M(), (torch.randn(4),))
            ops = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
            print(f"grad enabled={grad}: exported, ops {ops}")
        except torch._dynamo.exc.UncapturedHigherOrderOpError as e:
            reason = [line for line in str(e).splitlines() if line.startswith("Encountered")]
            print(f"grad enabled={grad}: {type(e).__name__}: {reason[0]}")
