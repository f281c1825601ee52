# mistake: rotate_half written as cat(x2, -x1) instead of cat(-x2, x1): every pair turns by
# minus its angle, which keeps the lengths and the relative-position property, so only the
# values show it
# fails: matches_complex
import torch


def apply_rope(x, positions, base=10000.0):
    d = x.shape[-1]
    dtype = torch.promote_types(x.dtype, torch.float32)
    inv_freq = base ** (-torch.arange(0, d, 2, device=x.device, dtype=dtype) / d)
    angles = positions.to(dtype)[:, None] * inv_freq
    emb = torch.cat([angles, angles], dim=-1)  # (L, D): pair i uses the angle of i in both halves
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    rotated = torch.cat([x2, -x1], dim=-1)
    return x * emb.cos().to(x.dtype) + rotated * emb.sin().to(x.dtype)
