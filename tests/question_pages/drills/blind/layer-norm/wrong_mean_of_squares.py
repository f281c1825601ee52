# wrong: the variance as E[x^2] - E[x]^2, one pass: in float32 at mean 1e4 and spread 1 the two terms
# (about 1e8) cancel and the variance is lost to rounding (it can even come out negative)
import torch


def layer_norm(x: torch.Tensor, normalized_shape: tuple[int, ...], weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    dims = tuple(range(x.dim() - len(normalized_shape), x.dim()))
    xc = x.to(compute)
    mean = xc.mean(dim=dims, keepdim=True)
    var = (xc * xc).mean(dim=dims, keepdim=True) - mean * mean
    y = (xc - mean) * torch.rsqrt(var.clamp_min(0) + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
