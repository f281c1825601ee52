# mistake: centres the row first, as LayerNorm does (x - mean, divided by the root of the
# variance): RMSNorm subtracts no mean
# fails: no_centering
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    xc = xc - xc.mean(dim=-1, keepdim=True)
    y = xc * torch.rsqrt(xc.pow(2).mean(dim=-1, keepdim=True) + eps)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
