import torch


def apply_rope(x, positions, base=10000.0):
    h = x.shape[-1] // 2
    dtype = torch.promote_types(x.dtype, torch.float32)  # float64 stays float64
    inv_freq = base ** (-2 * torch.arange(h, device=x.device, dtype=dtype) / x.shape[-1])  # (h,)
    angles = positions.to(dtype)[:, None] * inv_freq  # (L, h): position times frequency
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)  # broadcast over B and H
    x1, x2 = x[..., :h], x[..., h:]  # dimension i pairs with i + h
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)  # a new tensor
