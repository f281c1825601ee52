import math

import torch
from torch import nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        self.norm = nn.LayerNorm(64)
        self.fc = nn.Linear(64, 64)
        self.gate = nn.Parameter(torch.ones(64))  # a parameter of Block itself


def build():
    return nn.Sequential(nn.Embedding(100, 64), Block(), nn.Linear(64, 100))


# 1. reset_parameters re-draws a module's own parameters, and only those
lin = nn.Linear(4, 2)
before = lin.weight.clone()
lin.reset_parameters()
print("Linear.reset_parameters() changed the weight:", not torch.equal(before, lin.weight))
print("Sequential has reset_parameters:", hasattr(nn.Sequential(), "reset_parameters"))

# 2. Build on the meta device: shapes and dtypes only, no storage, nothing drawn
with torch.device("meta"):
    model = build()
print("on meta:", model[2].weight.device, tuple(model[2].weight.shape),
      "parameters:", sum(q.numel() for q in model.parameters()))

# 3. Materialise uninitialised memory, then run each module's reset_parameters
model.to_empty(device="cpu")
missed = []
for name, m in model.named_modules():
    if hasattr(m, "reset_parameters"):
        m.reset_parameters()
    elif any(True for _ in m.parameters(recurse=False)):
        missed.append(name)
print("own parameters but no reset_parameters:", missed)
attn = model[1].attn
print("out_proj.bias all zero, as MultiheadAttention's own init leaves it:",
      bool((attn.out_proj.bias == 0).all()))

# 4. Cover what the loop missed: Block's own parameter, then MultiheadAttention's
#    private _reset_parameters (xavier_uniform_ in_proj, zero biases) after its children
with torch.no_grad():
    model[1].gate.fill_(1.0)
attn._reset_parameters()
bound = math.sqrt(6 / (64 + 3 * 64))  # xavier_uniform_ bound for a (192, 64) weight
print("after the fix: gate all one:", bool((model[1].gate == 1).all()),
      "| in_proj_bias all zero:", bool((attn.in_proj_bias == 0).all()),
      "| out_proj.bias all zero:", bool((attn.out_proj.bias == 0).all()),
      "| in_proj_weight within xavier bound:", bool(attn.in_proj_weight.abs().max() <= bound))
