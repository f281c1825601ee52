# mistake: upcasts half precision to float32 but returns the float32 result, not x's dtype
# fails: low_precision
import torch


def rms_norm(x, weight=None, eps=1e-6):
    xc = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    y = xc * torch.rsqrt(xc.pow(2).mean(dim=-1, keepdim=True) + eps)
    if weight is not None:
        y = y * weight.to(y.dtype)
    return y
