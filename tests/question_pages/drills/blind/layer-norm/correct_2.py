import math

import torch


def layer_norm(x: torch.Tensor, normalized_shape: tuple[int, ...], weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    shape = tuple(normalized_shape)
    n = math.prod(shape)
    lead = x.shape[:x.dim() - len(shape)]
    wide = x.dtype if x.dtype == torch.float64 else torch.float32
    flat = x.reshape(*lead, n).to(wide)
    var, mean = torch.var_mean(flat, dim=-1, correction=0, keepdim=True)
    y = (flat - mean) / torch.sqrt(var + eps)
    w = weight.reshape(n).to(wide) if weight is not None else None
    b = bias.reshape(n).to(wide) if bias is not None else None
    if w is not None and b is not None:
        y = torch.addcmul(b, y, w)  # b + y * w in one op
    elif w is not None:
        y = y * w
    elif b is not None:
        y = y + b
    return y.reshape(x.shape).to(x.dtype)
