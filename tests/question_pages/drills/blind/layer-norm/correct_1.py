import torch


def layer_norm(x: torch.Tensor, normalized_shape: tuple[int, ...], weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    dims = tuple(range(x.dim() - len(normalized_shape), x.dim()))
    xc = x.to(compute)
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    # two passes: the variance of the centred values, which does not cancel far from zero
    var = (centred * centred).mean(dim=dims, keepdim=True)
    y = centred * torch.rsqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
