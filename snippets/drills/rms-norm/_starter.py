import torch


def rms_norm(x: torch.Tensor, weight: torch.Tensor | None = None, eps: float = 1e-6) -> torch.Tensor:
    """RMS normalisation over the last dimension, as torch.nn.functional.rms_norm(x, (D,), weight, eps).

    x: any shape (..., D), D >= 1, floating point (float16, bfloat16, float32 or float64).
    weight: None, or a (D,) tensor of x's dtype: a per-feature scale applied after normalising.
    eps: added to the mean of the squares, inside the square root:
        y = x / sqrt(mean(x ** 2 over the last dimension) + eps) * weight
    No mean is subtracted and there is no bias (this is not LayerNorm).
    A row of zeros gives zeros, not NaN.
    float16 and bfloat16 inputs are computed in float32 (in float16 the square of 256 or more overflows)
    and the result is cast back; float64 is computed in float64.
    Returns a tensor of x's shape and dtype, differentiable with respect to x and weight.
    """
    raise NotImplementedError("write rms_norm here")
