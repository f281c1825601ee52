# mistake: divides by the standard deviation without eps: a constant group is 0 / 0 = NaN, and
# rows of tiny variance are blown up
# fails: constant_groups
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    var = centred.pow(2).mean(dim=dims, keepdim=True)
    y = centred / var.sqrt()
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
