import torch


def layer_norm(x: torch.Tensor, normalized_shape: tuple[int, ...], weight: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, eps: float = 1e-5) -> torch.Tensor:
    """Layer normalisation, as torch.nn.functional.layer_norm(x, normalized_shape, weight, bias, eps),
    written without F.layer_norm, torch.layer_norm, torch.native_layer_norm or nn.LayerNorm.

    x: any shape (..., *normalized_shape), floating point (float16, bfloat16, float32 or float64).
    normalized_shape: a tuple of 1 or more ints, equal to the LAST len(normalized_shape) dimensions
        of x (x.shape[-2:] when it has two). Each group of x over those trailing dimensions (for
        (B, T, D) and (D,), each row of D values; for (B, H, W) and (H, W), each H * W slice) is
        normalised on its own:
            y = (x - mean) / sqrt(var + eps) * weight + bias
        mean and var over all the normalised dimensions together; var is the biased variance
        (divided by the number of values, not that minus 1); eps is inside the square root.
    weight, bias: each None or a tensor of shape normalized_shape in x's dtype; either may be given
        without the other (None: no scale, no shift).
    A group whose values are all equal (variance 0) gives bias (zeros without one), never NaN.
    Values far from zero with a small spread (mean 1e4, standard deviation 1, in float32) must
    still come out right: the variance must not cancel.
    float16 and bfloat16 inputs are computed in float32 and the result is cast back to x's dtype;
    float32 stays float32 and float64 is computed in float64.
    Returns a tensor of x's shape and dtype, differentiable with respect to x, weight and bias.
    """
    raise NotImplementedError("write layer_norm here")
