import torch
from torch import nn


class LoRALinear(torch.nn.Module):
    """A LoRA adapter around a frozen nn.Linear: y = base(x) + (alpha / r) * x @ A^T @ B^T.

    __init__(base, r, alpha):
        base: an nn.Linear(in_features, out_features), with or without a bias, float32 or float64.
            Keep this very module as self.base (no copy: self.base is base, and its weight and
            bias stay the same tensors) and freeze it: set requires_grad to False on base.weight
            and on base.bias (when there is one).
        r: the rank, an int >= 1. alpha: a float > 0. The LoRA term is scaled by alpha / r.
        Parameters (nn.Parameter, trained, in base.weight's dtype and device):
            lora_A: (r, in_features), random (for example nn.init.kaiming_uniform_(lora_A,
                a=math.sqrt(5)), as nn.Linear initialises its weight, or a normal init): finite
                and not all zero;
            lora_B: (out_features, r), all zeros, so that at init the layer equals base exactly.
        named_parameters() then names exactly base.weight, base.bias (if any), lora_A and lora_B,
        in any order, and only lora_A and lora_B have requires_grad=True. No other parameters or
        buffers.

    forward(x): x of shape (..., in_features) (1-d, (N, in), (B, T, in), ...), the module's dtype.
        Returns base(x) + (alpha / r) * (x @ lora_A.T) @ lora_B.T, shape (..., out_features),
        differentiable with respect to x, lora_A and lora_B; no gradient reaches base.weight or
        base.bias (their .grad stays None).

    merge(): returns a new plain nn.Linear(in_features, out_features) in the same dtype and device,
        with weight = base.weight + (alpha / r) * lora_B @ lora_A (shape (out_features,
        in_features)) and the base's bias (bias=None when base has none), whose output equals
        self(x). self is left unchanged: base.weight, lora_A, lora_B and self(x) are as before.
    """

    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        raise NotImplementedError("freeze base, create lora_A and lora_B here")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError("write the forward here")

    def merge(self) -> nn.Linear:
        raise NotImplementedError("return the merged nn.Linear here")
