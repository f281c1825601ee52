# wrong: the rotation is written into x in place and x is returned, so the caller's tensor is modified
import torch


def apply_rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    d = x.shape[-1]
    h = d // 2
    inv_freq = base ** (-2.0 * torch.arange(h, dtype=torch.float64) / d)
    angles = positions.to(torch.float64)[:, None] * inv_freq[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    with torch.no_grad():
        x1, x2 = x[..., :h].clone(), x[..., h:].clone()
        x[..., :h] = x1 * cos - x2 * sin
        x[..., h:] = x2 * cos + x1 * sin
    return x
