import os
import warnings

import torch
import torch.nn.functional as F

# Hide an internal pytree FutureWarning that run_decompositions emits in torch 2.13.
warnings.filterwarnings("ignore", category=FutureWarning)
device = os.environ.get("SNIPPET_DEVICE", "cpu")


class Attention(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)


q, k, v = (torch.randn(1, 2, 8, 16, device=device) for _ in range(3))
ep = torch.export.export(Attention(), (q, k, v))


def ops(program):
    return [str(n.target) for n in program.graph.nodes if n.op == "call_function"]


print("example inputs on:", device)
print("training IR:", ops(ep))
core = ops(ep.run_decompositions())
print(f"Core ATen: {len(core)} calls, distinct ops:")
for op in sorted(set(core)):
    print("   ", op)
