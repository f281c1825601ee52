# mistake: x / x.norm(dim=-1) * sqrt(D), with no eps: the same as RMSNorm for most rows, but a
# row of zeros is 0 / 0 = NaN
# fails: zero_row
import math

import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    y = xc / xc.norm(dim=-1, keepdim=True) * math.sqrt(x.shape[-1])
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
