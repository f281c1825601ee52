# mistake: the frequencies and angles are always float32 (arange(...).float()), then cast to x's
# dtype: a float64 x gets a float64 result with only float32-accurate angles
# fails: float64
import torch


def apply_rope(x, positions, base=10000.0):
    d = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, device=x.device).float() / d))
    angles = positions.float()[:, None] * inv_freq
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
