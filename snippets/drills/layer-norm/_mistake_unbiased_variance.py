# mistake: the variance is the unbiased one, divided by n - 1 (torch.var's default) instead of n:
# every output is too small by sqrt((n - 1) / n), 3% for rows of 16
# fails: matches_layer_norm
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    n = centred.numel() // mean.numel()
    var = centred.pow(2).sum(dim=dims, keepdim=True) / (n - 1)
    y = centred * torch.rsqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
