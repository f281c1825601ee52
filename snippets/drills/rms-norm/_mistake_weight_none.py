# mistake: always multiplies by weight, so weight=None raises a TypeError
# fails: no_weight
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    y = xc * torch.rsqrt(xc.pow(2).mean(dim=-1, keepdim=True) + eps) * weight
    return y.to(x.dtype)
