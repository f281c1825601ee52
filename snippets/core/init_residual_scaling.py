import math

import torch
from torch import nn

torch.manual_seed(0)
D, L = 256, 64  # width, number of residual blocks (one branch each)
SHOW = [1, 4, 16, 64]


class Block(nn.Module):  # pre-norm: x + out(relu(inp(norm(x))))
    def __init__(self, out_scale):
        super().__init__()
        self.norm = nn.LayerNorm(D)
        self.inp = nn.Linear(D, 4 * D)
        self.out = nn.Linear(4 * D, D)  # the output projection into the residual stream
        nn.init.kaiming_normal_(self.inp.weight, nonlinearity="relu")
        nn.init.normal_(self.out.weight, std=out_scale / math.sqrt(4 * D))
        nn.init.zeros_(self.inp.bias)
        nn.init.zeros_(self.out.bias)

    def forward(self, x):
        return x + self.out(torch.relu(self.inp(self.norm(x))))


x0 = torch.randn(256, D)
print(f"residual stream std after block ({L} blocks, input std {x0.std().item():.3g}):")
print(f"{'output projection':<24}" + "".join(f"{d:>8}" for d in SHOW))
for label, scale in [("unscaled", 1.0), (f"scaled 1/sqrt({L})", 1 / math.sqrt(L))]:
    blocks = [Block(scale) for _ in range(L)]
    x, stds = x0, {}
    with torch.no_grad():
        for depth, block in enumerate(blocks, start=1):
            x = block(x)
            if depth in SHOW:
                stds[depth] = x.std().item()
    print(f"{label:<24}" + "".join(f"{stds[d]:>8.3g}" for d in SHOW))
print(f"sqrt(1 + {L}) = {math.sqrt(1 + L):.3g}, sqrt(1 + 1) = {math.sqrt(2):.3g}")
