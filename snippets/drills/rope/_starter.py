import torch


def apply_rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Rotary position embedding (RoPE) of queries or keys, in the half-split layout.

    x: (B, H, L, D), float32 or float64, D even; it is not modified.
    positions: a 1-D integer tensor (int64 or int32) of length L: the position of each of the L
        tokens. They need not start at 0 or be consecutive (a decode step is one token at, say,
        position 17).
    base: the frequency base.

    With h = D // 2, dimension i pairs with dimension i + h (the half-split, `rotate_half`
    layout), for i in 0..h-1. The pair of a token at position p turns by the angle
    p * base ** (-2 * i / D):
        out[..., i]     = x[..., i] * cos - x[..., i + h] * sin
        out[..., i + h] = x[..., i + h] * cos + x[..., i] * sin
    Returns a new (B, H, L, D) tensor in x's dtype, exact to that dtype (float64 in, float64
    accuracy out), differentiable with respect to x.
    """
    raise NotImplementedError("write apply_rope here")
