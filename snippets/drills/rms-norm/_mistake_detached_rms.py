# mistake: the root mean square is detached (treated as a constant), so the forward is right but
# the gradient of x misses the term through the normaliser
# fails: gradients
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    inv_rms = torch.rsqrt(xc.pow(2).mean(dim=-1, keepdim=True) + eps).detach()
    y = xc * inv_rms
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
