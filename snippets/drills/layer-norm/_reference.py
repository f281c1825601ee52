import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    # Half precision is computed in float32 and cast back at the end.
    compute = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    xc = x.to(compute)
    dims = tuple(range(-len(normalized_shape), 0))  # the trailing dimensions, all together
    mean = xc.mean(dim=dims, keepdim=True)
    centred = xc - mean
    # Two passes: the variance is the mean of the centred squares, biased (divided by n), which
    # does not cancel as E[x^2] - E[x]^2 does when the mean is large against the spread.
    var = centred.pow(2).mean(dim=dims, keepdim=True)
    y = centred * torch.rsqrt(var + eps)  # eps inside the root: a constant group gives 0, not NaN
    if weight is not None:
        y = y * weight.to(compute)
    if bias is not None:
        y = y + bias.to(compute)
    return y.to(x.dtype)
