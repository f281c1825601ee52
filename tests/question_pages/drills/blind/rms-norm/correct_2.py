import torch


def rms_norm(x: torch.Tensor, weight: torch.Tensor | None = None, eps: float = 1e-6) -> torch.Tensor:
    """The sum of squares over D, a division by the square root, the cast back to x's dtype
    first and the weight applied after it (as torch's composite rms_norm does)."""
    d = x.shape[-1]
    xc = x.to(torch.promote_types(x.dtype, torch.float32))
    rms = torch.sqrt((xc * xc).sum(dim=-1, keepdim=True) / d + eps)
    y = (xc / rms).type_as(x)
    if weight is not None:
        y = y * weight
    return y
