# mistake: the halves of x are overwritten in place and x is returned: the caller's q or k is
# changed, and autograd refuses the write into a leaf that requires grad
# fails: input_unchanged
import torch


def apply_rope(x, positions, base=10000.0):
    h = x.shape[-1] // 2
    dtype = torch.promote_types(x.dtype, torch.float32)
    inv_freq = base ** (-2 * torch.arange(h, device=x.device, dtype=dtype) / x.shape[-1])
    angles = positions.to(dtype)[:, None] * inv_freq
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :h], x[..., h:]  # views of x
    x[..., :h], x[..., h:] = x1 * cos - x2 * sin, x2 * cos + x1 * sin
    return x
