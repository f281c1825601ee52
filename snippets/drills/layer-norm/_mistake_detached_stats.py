# mistake: the mean and variance are detached (treated as constants): the values are right, but
# the gradient of x misses the paths through the statistics of its group
# fails: gradients
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = xc.mean(dim=dims, keepdim=True).detach()
    centred = xc - mean
    var = centred.pow(2).mean(dim=dims, keepdim=True).detach()
    y = centred * torch.rsqrt(var + eps)
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
