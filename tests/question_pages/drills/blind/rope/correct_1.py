import torch


def apply_rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """cos and sin tables from angles computed in float64, the rotate_half formula."""
    d = x.shape[-1]
    h = d // 2
    i = torch.arange(h, dtype=torch.float64, device=x.device)
    inv_freq = base ** (-2.0 * i / d)                                     # (h,)
    angles = positions.to(torch.float64)[:, None] * inv_freq[None, :]     # (L, h)
    cos = torch.cat([angles.cos(), angles.cos()], dim=-1).to(x.dtype)     # (L, D)
    sin = torch.cat([angles.sin(), angles.sin()], dim=-1).to(x.dtype)
    rotated = torch.cat([-x[..., h:], x[..., :h]], dim=-1)                # rotate_half(x)
    return x * cos + rotated * sin
