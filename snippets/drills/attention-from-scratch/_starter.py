import torch


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              mask: torch.Tensor | None = None, causal: bool = False) -> torch.Tensor:
    """Scaled dot-product attention, as torch.nn.functional.scaled_dot_product_attention.

    q: (B, H, Lq, D); k and v: (B, H, Lk, D), floating point.
    mask: None, or a boolean tensor broadcastable to (B, H, Lq, Lk): True = may attend.
    causal: query i attends to keys 0..i only (the lower triangle, aligned at the top left,
        as `is_causal`); with a mask too, a key must pass both.
    A query that may attend to no key at all gets zeros.
    Returns (B, H, Lq, D), in q's dtype.
    """
    raise NotImplementedError("write attention here")
