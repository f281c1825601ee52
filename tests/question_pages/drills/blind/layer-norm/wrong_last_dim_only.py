# wrong: normalises over the last dimension only, whatever normalized_shape says: right for a 1-tuple,
# wrong for (H, W), where each whole H * W slice should share one mean and variance
import torch


def layer_norm(x: torch.Tensor, normalized_shape: tuple[int, ...], weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    mean = xc.mean(dim=-1, keepdim=True)
    var = ((xc - mean) ** 2).mean(dim=-1, keepdim=True)
    y = (xc - mean) / torch.sqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
