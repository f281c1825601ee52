import torch
from torch import nn


class LoRALinear(torch.nn.Module):
    """A normal init for lora_A, the low-rank term as matmuls on x (any leading shape, 1-d too),
    and merge assigning fresh detached Parameters to an nn.Linear."""

    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        base.weight.requires_grad = False
        if base.bias is not None:
            base.bias.requires_grad = False
        self.base = base
        self.scale = float(alpha) / int(r)
        out_features, in_features = base.weight.shape
        factory = {"dtype": base.weight.dtype, "device": base.weight.device}
        self.lora_A = nn.Parameter(torch.randn(r, in_features, **factory) / r)
        self.lora_B = nn.Parameter(torch.zeros(out_features, r, **factory))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        low = (x @ self.lora_A.T) @ self.lora_B.T
        return self.base(x) + self.scale * low

    def merge(self) -> nn.Linear:
        out_features, in_features = self.base.weight.shape
        has_bias = self.base.bias is not None
        linear = nn.Linear(in_features, out_features, bias=has_bias)
        delta = self.scale * torch.matmul(self.lora_B.detach(), self.lora_A.detach())
        linear.weight = nn.Parameter(self.base.weight.detach().clone() + delta)
        if has_bias:
            linear.bias = nn.Parameter(self.base.bias.detach().clone())
        return linear
