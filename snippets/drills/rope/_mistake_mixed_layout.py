# mistake: the angles are spread with repeat_interleave (the interleaved layout's table) but the
# rotation is rotate_half's: dimensions i and i + D/2 of one pair turn by different angles, so
# the pair is not rotated and its length changes
# fails: keeps_pair_norms
import torch


def apply_rope(x, positions, base=10000.0):
    d = x.shape[-1]
    dtype = torch.promote_types(x.dtype, torch.float32)
    inv_freq = base ** (-torch.arange(0, d, 2, device=x.device, dtype=dtype) / d)
    angles = positions.to(dtype)[:, None] * inv_freq
    emb = angles.repeat_interleave(2, dim=-1)  # (L, D): f0, f0, f1, f1, ...
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    rotated = torch.cat([-x2, x1], dim=-1)
    return x * emb.cos().to(x.dtype) + rotated * emb.sin().to(x.dtype)
