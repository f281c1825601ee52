# mistake: the mean over the last dimension drops it (no keepdim=True), so the (...,) root does
# not broadcast against (..., D): it works for 1-d x and fails for a batch
# fails: shape_and_dtype
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    y = xc * torch.rsqrt(xc.pow(2).mean(dim=-1) + eps)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
