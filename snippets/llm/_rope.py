"""RoPE in both layouts, used by the rope snippets."""
import torch


def angles(positions, dim, base=10000.0):
    """(L, dim/2) table: position p times the frequency base ** (-2i / dim) of pair i."""
    inv_freq = base ** (-torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    return positions.to(torch.float64)[:, None] * inv_freq[None, :]


def rope_half(x, positions, base=10000.0):
    """Half-split (rotate_half) layout: dimension i pairs with i + D/2."""
    a = angles(positions, x.shape[-1], base)
    cos, sin = a.cos().to(x.dtype), a.sin().to(x.dtype)
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def rope_interleaved(x, positions, base=10000.0):
    """Interleaved layout: dimension 2i pairs with 2i + 1."""
    a = angles(positions, x.shape[-1], base)
    cos, sin = a.cos().to(x.dtype), a.sin().to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).flatten(-2)
