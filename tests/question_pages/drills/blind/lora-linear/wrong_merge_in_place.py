# wrong: merge() folds the adapter into base.weight in place and returns the base itself, so the
# layer is changed (its output then counts the adapter twice) and the result is not a new module
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
        self.scaling = alpha / r
        w = base.weight
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=w.dtype, device=w.device))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=w.dtype, device=w.device))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + self.scaling * F.linear(F.linear(x, self.lora_A), self.lora_B)

    def merge(self) -> nn.Linear:
        with torch.no_grad():
            self.base.weight += self.scaling * (self.lora_B @ self.lora_A)
        return self.base
