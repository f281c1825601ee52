# wrong: the low-rank term scaled by alpha instead of alpha / r (in the forward and in merge)
import math

import torch
from torch import nn
from torch.nn import functional as F


class LoRALinear(torch.nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.scaling = alpha
        w = base.weight
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=w.dtype, device=w.device))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=w.dtype, device=w.device))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + self.scaling * F.linear(F.linear(x, self.lora_A), self.lora_B)

    def merge(self) -> nn.Linear:
        w = self.base.weight
        merged = nn.Linear(self.base.in_features, self.base.out_features,
                           bias=self.base.bias is not None, dtype=w.dtype, device=w.device)
        with torch.no_grad():
            merged.weight.copy_(w + self.scaling * (self.lora_B @ self.lora_A))
            if self.base.bias is not None:
                merged.bias.copy_(self.base.bias)
        return merged
