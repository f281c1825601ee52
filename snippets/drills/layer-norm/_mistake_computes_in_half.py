# mistake: computes in x's own dtype: in float16 and bfloat16 the mean, the centred values and
# the variance are each rounded: on values near 100 the float16 output is off by 0.023
# fails: low_precision
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = x.dtype
    xc = x.to(compute)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    var = centred.pow(2).mean(dim=dims, keepdim=True)
    y = centred * torch.rsqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
