# mistake: the interleaved layout: dimension 2i pairs with dimension 2i + 1,
# where the contract pairs i with i + D/2
# fails: matches_complex
import torch


def apply_rope(x, positions, base=10000.0):
    h = x.shape[-1] // 2
    dtype = torch.promote_types(x.dtype, torch.float32)
    inv_freq = base ** (-2 * torch.arange(h, device=x.device, dtype=dtype) / x.shape[-1])
    angles = positions.to(dtype)[:, None] * inv_freq
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]  # even and odd dimensions
    return torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).flatten(-2)
