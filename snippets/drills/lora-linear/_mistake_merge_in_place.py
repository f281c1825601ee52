# mistake: merge() adds the adapter into base.weight in place and returns self.base: the
# returned Linear is right once, but the LoRA layer now adds B @ A a second time on every forward
# fails: merge_leaves_layer
import math

import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
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
        self.base.weight.add_(self.scale * (self.lora_B @ self.lora_A))
        return self.base
