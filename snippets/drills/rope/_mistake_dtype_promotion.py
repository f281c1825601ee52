# mistake: cos and sin are float64 and never cast back: float32 x times a float64 table is a
# float64 result, twice the memory, and no longer x's dtype
# fails: shape_and_dtype
import torch


def apply_rope(x, positions, base=10000.0):
    h = x.shape[-1] // 2
    inv_freq = base ** (-2 * torch.arange(h, device=x.device, dtype=torch.float64) / x.shape[-1])
    angles = positions.to(torch.float64)[:, None] * inv_freq
    cos, sin = angles.cos(), angles.sin()
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
