import torch
from torch import nn


class BatchNorm(nn.Module):
    """The channels moved to the front and flattened to (C, n), the moments summed by hand,
    rsqrt, and the running statistics updated with lerp_."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1):
        super().__init__()
        self.eps = eps
        self.momentum = momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))
        self.register_buffer("num_batches_tracked", torch.zeros((), dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c = x.shape[1]
        flat = x.movedim(1, 0).reshape(c, -1)          # (C, n)
        n = flat.shape[1]
        if self.training:
            if n == 1:
                raise ValueError("BatchNorm needs more than one value per channel in training")
            mean = flat.sum(dim=1) / n
            centred = flat - mean[:, None]
            var = (centred * centred).sum(dim=1) / n
            with torch.no_grad():
                self.running_mean.lerp_(mean, self.momentum)
                self.running_var.lerp_(var * (n / (n - 1)), self.momentum)
                self.num_batches_tracked += 1
        else:
            mean, var = self.running_mean, self.running_var
            centred = flat - mean[:, None]
        scale = torch.rsqrt(var + self.eps) * self.weight       # (C,)
        out = centred * scale[:, None] + self.bias[:, None]      # (C, n)
        rest = (x.shape[0], *x.shape[2:])
        return out.reshape(c, *rest).movedim(0, 1)
