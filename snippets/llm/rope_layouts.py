import torch
from _rope import angles, rope_half, rope_interleaved

torch.manual_seed(0)
D = 8
q, k = torch.randn(D, dtype=torch.float64), torch.randn(D, dtype=torch.float64)


def score(m, n, rope_q, rope_k):
    return (rope_q(q[None], torch.tensor([m]))[0] @ rope_k(k[None], torch.tensor([n]))[0]).item()


print("offset 3 at three places, q and k in different layouts (q half-split, k interleaved):")
for m, n in [(5, 2), (13, 10), (1003, 1000)]:
    print(f"  q at {m:4d}, k at {n:4d}: score {score(m, n, rope_half, rope_interleaved):.6f}")

# a checkpoint trained with interleaved RoPE, served with half-split code
x = torch.randn(1, 2, 6, D, dtype=torch.float64)
pos = torch.arange(6)
wrong = rope_half(x, pos)
right = rope_interleaved(x, pos)
print("half-split output == interleaved reference:", torch.allclose(wrong, right),
      "| max abs diff > 0.1:", (wrong - right).abs().max().item() > 0.1)
print("position 0 is untouched by both:", torch.equal(wrong[..., 0, :], x[..., 0, :]),
      torch.equal(right[..., 0, :], x[..., 0, :]))

# the layouts are one fixed permutation of the head dimension apart
perm = torch.cat([torch.arange(0, D, 2), torch.arange(1, D, 2)])   # evens, then odds
print("perm:", perm.tolist())
print("rope_half(x[..., perm]) == rope_interleaved(x)[..., perm]:",
      torch.allclose(rope_half(x[..., perm], pos), right[..., perm]))
# so permuting q's and k's head dims the same way gives identical attention scores
kx = torch.randn(1, 2, 6, D, dtype=torch.float64)
s_inter = rope_interleaved(x, pos) @ rope_interleaved(kx, pos).transpose(-2, -1)
s_half = rope_half(x[..., perm], pos) @ rope_half(kx[..., perm], pos).transpose(-2, -1)
print("scores equal after permuting q and k:", torch.allclose(s_inter, s_half))

# base sets the frequencies: pair i turns by base ** (-2i / D) radians per token
for base in (10000.0, 500000.0):
    freq = angles(torch.tensor([1]), D, base)[0]
    wave = 2 * torch.pi / freq
    print(f"base {base:>8.0f}: radians/token {[round(f, 4) for f in freq.tolist()]}"
          f"  wavelength (tokens) {[round(w, 1) for w in wave.tolist()]}")
