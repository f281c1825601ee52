# wrong: positions ignored, tokens numbered 0..L-1: a decode step at position 17 turns as position 0
import torch


def apply_rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    seq, d = x.shape[-2:]
    h = d // 2
    inv_freq = base ** (-2.0 * torch.arange(h, dtype=torch.float64) / d)
    angles = torch.arange(seq, dtype=torch.float64)[:, None] * inv_freq[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
