import torch


def apply_rope(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Each pair (x[i], x[i + h]) as the complex number x[i] + j x[i + h], multiplied by
    exp(j * angle), the rotation factors built in complex128."""
    h = x.shape[-1] // 2
    exponent = torch.arange(0, x.shape[-1], 2, dtype=torch.float64, device=x.device) / x.shape[-1]
    freqs = torch.pow(torch.tensor(float(base), dtype=torch.float64), -exponent)
    angles = torch.outer(positions.double(), freqs)                           # (L, h)
    rotation = torch.polar(torch.ones_like(angles), angles)                   # complex128
    complex_dtype = torch.complex128 if x.dtype == torch.float64 else torch.complex64
    z = torch.complex(x[..., :h], x[..., h:]) * rotation.to(complex_dtype)
    return torch.cat([z.real, z.imag], dim=-1).to(x.dtype)
