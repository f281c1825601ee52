# mistake: always computes in float32 (x.float()) and casts back: right for half precision, but
# float64 input loses its precision
# fails: float64
import torch


def rms_norm(x, weight=None, eps=1e-6):
    xc = x.float()
    y = xc * torch.rsqrt(xc.pow(2).mean(dim=-1, keepdim=True) + eps)
    if weight is not None:
        y = y * weight.float()
    return y.to(x.dtype)
