# mistake: the base Linear is not frozen: base.weight and base.bias keep requires_grad=True,
# so the optimizer trains (and keeps Adam state for) the whole weight
# fails: parameters
import math

import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.r, self.alpha = r, alpha
        self.scale = alpha / r
        w = base.weight
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=w.dtype, device=w.device))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=w.dtype, device=w.device))

    def forward(self, x):
        return self.base(x) + self.scale * ((x @ self.lora_A.T) @ self.lora_B.T)

    @torch.no_grad()
    def merge(self):
        base, w = self.base, self.base.weight
        merged = nn.Linear(base.in_features, base.out_features, bias=base.bias is not None,
                           dtype=w.dtype, device=w.device)
        merged.weight.copy_(w + self.scale * (self.lora_B @ self.lora_A))
        if base.bias is not None:
            merged.bias.copy_(base.bias)
        return merged
