# wrong: eps added to the root mean square, outside the square root: x / (sqrt(mean(x**2)) + eps)
import torch


def rms_norm(x: torch.Tensor, weight: torch.Tensor | None = None, eps: float = 1e-6) -> torch.Tensor:
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    y = xc / (xc.pow(2).mean(dim=-1, keepdim=True).sqrt() + eps)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
