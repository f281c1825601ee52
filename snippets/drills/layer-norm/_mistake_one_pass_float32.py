# mistake: the variance is taken in one pass as mean(x ** 2) - mean ** 2 in float32: exact on
# paper, but the two terms cancel when the mean is large against the spread (off by 0.1 or more
# at mean 1e3, NaN in some rows at 1e4)
# fails: large_offset
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    var = xc.pow(2).mean(dim=dims, keepdim=True) - mean.pow(2)
    y = centred * torch.rsqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
