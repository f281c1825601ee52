# mistake: eps is added after the square root, sqrt(mean(x ** 2)) + eps, not inside it: the two
# agree for unit-scale rows and differ when the mean square is near eps (and on a zero row the
# gradient is NaN: the derivative of sqrt at 0 is infinite)
# fails: eps_inside_sqrt
import torch


def rms_norm(x, weight=None, eps=1e-6):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    rms = xc.pow(2).mean(dim=-1, keepdim=True).sqrt()
    y = xc / (rms + eps)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
