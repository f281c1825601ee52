# wrong: the variance is the unbiased one (divided by N - 1, torch.var's default), not the biased one
# layer norm uses
import torch


def layer_norm(x: torch.Tensor, normalized_shape: tuple[int, ...], weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    dims = tuple(range(x.dim() - len(normalized_shape), x.dim()))
    xc = x.to(compute)
    mean = xc.mean(dim=dims, keepdim=True)
    var = xc.var(dim=dims, keepdim=True)
    y = (xc - mean) / torch.sqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
