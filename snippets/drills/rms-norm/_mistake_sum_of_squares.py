# mistake: divides by the root of the sum of the squares (the L2 norm) instead of their mean,
# so every output is sqrt(D) times too small
# fails: matches_rms_norm
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    y = xc * torch.rsqrt(xc.pow(2).sum(dim=-1, keepdim=True) + eps)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
