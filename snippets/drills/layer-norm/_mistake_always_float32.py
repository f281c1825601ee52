# mistake: always computes in float32 (x.float()), so float64 input comes back in float32, with
# float32's precision
# fails: float64
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = torch.float32
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
    return y
