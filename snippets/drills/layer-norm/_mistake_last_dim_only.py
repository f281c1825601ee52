# mistake: normalises over the last dimension only: right when normalized_shape has one
# dimension, but with (4, 8) each row of 8 is normalised on its own instead of the 32 values together
# fails: two_dims
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    dims = (-1,)
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    var = centred.pow(2).mean(dim=dims, keepdim=True)
    y = centred * torch.rsqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
