# mistake: eps is written as the constant 1e-6 instead of the argument, so a caller's eps is ignored
# fails: eps_argument
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    y = xc * torch.rsqrt(xc.pow(2).mean(dim=-1, keepdim=True) + 1e-6)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
