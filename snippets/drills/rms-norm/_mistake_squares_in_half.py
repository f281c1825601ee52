# mistake: computes in x's own dtype: in float16 the square of a value above 256 overflows to inf,
# the root is inf and the row comes out as zeros
# fails: low_precision
import torch


def rms_norm(x, weight=None, eps=1e-6):
    y = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)
    if weight is not None:
        y = y * weight
    return y
