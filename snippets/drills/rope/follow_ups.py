# The follow-ups of rope, on the pinned torch: the interleaved layout against the half-split one
# (and torch's complex view of a pair), rotating a decode step against a cached prefix, and how
# exact the angles are in float32, float16 and bfloat16 at long-context positions.
import torch


def angles_of(positions, d, base=10000.0, dtype=torch.float64):
    inv_freq = base ** (-2 * torch.arange(d // 2, dtype=dtype) / d)
    return positions.to(dtype)[:, None] * inv_freq  # (L, D/2)


def half_split(x, positions):
    a = angles_of(positions, x.shape[-1]).to(x.dtype)
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([x1 * a.cos() - x2 * a.sin(), x2 * a.cos() + x1 * a.sin()], dim=-1)


def interleaved(x, positions):
    """Pairs (2i, 2i + 1) as complex numbers: view_as_complex reads adjacent pairs directly."""
    turn = torch.polar(torch.ones(()), angles_of(positions, x.shape[-1]).float())
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(pairs * turn).flatten(-2)


torch.manual_seed(0)
q, k = torch.randn(1, 2, 6, 8), torch.randn(1, 2, 6, 8)
pos = torch.arange(6)
perm = torch.cat([torch.arange(0, 8, 2), torch.arange(1, 8, 2)])  # evens first, then odds
print("interleaved and half-split differ:", not torch.allclose(interleaved(q, pos), half_split(q, pos)))
print("half_split(x[..., perm]) equals interleaved(x)[..., perm]:",
      torch.allclose(half_split(q[..., perm], pos), interleaved(q, pos)[..., perm], atol=1e-6))
scores_i = interleaved(q, pos) @ interleaved(k, pos).transpose(-2, -1)
scores_h = half_split(q[..., perm], pos) @ half_split(k[..., perm], pos).transpose(-2, -1)
print("and the attention scores are the same:", torch.allclose(scores_i, scores_h, atol=1e-5))
print("view_as_complex of float32 pairs:", torch.view_as_complex(q.reshape(1, 2, 6, 4, 2)).dtype)
try:
    torch.view_as_complex(torch.stack(q.chunk(2, dim=-1), dim=-2).transpose(-2, -1))
except RuntimeError as exc:
    print("view_as_complex of the half-split pairs without a copy:", exc)

# Decoding with a KV cache: keys are rotated once, at their own positions, before they are cached.
k_all, q_new = torch.randn(1, 2, 18, 8), torch.randn(1, 2, 1, 8)
cache = half_split(k_all[:, :, :17], torch.arange(17))  # the prefill: positions 0..16
cache = torch.cat([cache, half_split(k_all[:, :, 17:], torch.tensor([17]))], dim=-2)  # step 17
print("prefill 0..16, then one step at 17, equals one pass over 0..17:",
      torch.allclose(cache, half_split(k_all, torch.arange(18)), atol=1e-6))
print("the new query turned as position 0 instead of 17 changes its scores:",
      not torch.allclose(half_split(q_new, torch.tensor([0])) @ cache.transpose(-2, -1),
                         half_split(q_new, torch.tensor([17])) @ cache.transpose(-2, -1)))

# How exact the angle position * frequency is in float32, against float64, for D = 128 (the
# largest error over the 64 frequencies; compared with bounds, as its last bits depend on the CPU).
def float32_angle_error(p):
    exact = angles_of(torch.tensor([p]), 128)
    return float((angles_of(torch.tensor([p]), 128, dtype=torch.float32).double() - exact).abs().max())


print("position 1,000: float32 angles within 1e-4 rad:", float32_angle_error(1_000) < 1e-4)
print("position 100,000: float32 angles off by more than 1e-3 rad:",
      float32_angle_error(100_000) > 1e-3)
for dtype in (torch.bfloat16, torch.float16):
    print(f"positions 1001 and 100000 stored as {dtype}:",
          [float(v) for v in torch.tensor([1001, 100000]).to(dtype)])
