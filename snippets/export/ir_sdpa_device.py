import os
import warnings

import torch
import torch.nn.functional as F

torch.manual_seed(0)

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
print("decomp_table={}:", ops(ep.run_decompositions({})))

# Without the table's rule for the CPU flash kernel, we see what SDPA itself picked.
table = torch.export.default_decompositions()
del table[torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default]
print("default table minus that rule:", [op for op in ops(ep.run_decompositions(table))
                                         if "getitem" not in op])

core = ops(ep.run_decompositions())
print(f"default table (Core ATen): {len(core)} calls, distinct ops:")
for op in sorted(set(core)):
    print("   ", op)
