# mistake: the angles come from torch.arange(L), not from `positions`: right for a prompt that
# starts at 0, wrong for every decode step (one token, always turned as position 0)
# fails: decode_step
import torch


def apply_rope(x, positions, base=10000.0):
    h = x.shape[-1] // 2
    dtype = torch.promote_types(x.dtype, torch.float32)
    inv_freq = base ** (-2 * torch.arange(h, device=x.device, dtype=dtype) / x.shape[-1])
    t = torch.arange(x.shape[-2], device=x.device, dtype=dtype)
    angles = t[:, None] * inv_freq
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
