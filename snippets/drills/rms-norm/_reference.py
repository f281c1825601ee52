import torch


def rms_norm(x, weight=None, eps=1e-6):
    # Half precision is computed in float32: in float16 the square of 256 or more overflows.
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    mean_square = xc.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): one value per row
    y = xc * torch.rsqrt(mean_square + eps)  # eps inside the root: a zero row gives 0 * 1/sqrt(eps)
    if weight is not None:
        y = y * weight.to(compute)
    return y.to(x.dtype)
