# mistake: the frequencies are base ** (-i / D) for i = 0..D/2-1 (the 2 of 2i / D forgotten),
# so every pair after the first turns too fast
# fails: matches_complex
import torch


def apply_rope(x, positions, base=10000.0):
    h = x.shape[-1] // 2
    dtype = torch.promote_types(x.dtype, torch.float32)
    inv_freq = base ** (-torch.arange(h, device=x.device, dtype=dtype) / x.shape[-1])
    angles = positions.to(dtype)[:, None] * inv_freq
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
