import torch
from _rope import angles, rope_half, rope_interleaved

torch.manual_seed(0)
D = 8
q, k = torch.randn(D, dtype=torch.float64), torch.randn(D, dtype=torch.float64)


def score(m, n, rope=rope_half):
    """q at position m, k at position n, both rotated, then the dot product."""
    qm = rope(q[None], torch.tensor([m]))[0]
    kn = rope(k[None], torch.tensor([n]))[0]
    return (qm @ kn).item()


for m, n in [(5, 2), (13, 10), (1003, 1000), (5, 3)]:
    print(f"q at {m:4d}, k at {n:4d}, offset {m - n}: score {score(m, n):.6f}")
print("without RoPE:", round((q @ k).item(), 6), "| offset 0:", round(score(7, 7), 6))
print("norm kept:", torch.allclose(rope_half(q[None], torch.tensor([1000]))[0].norm(), q.norm()))

# the same layouts as torch.onnx.ops.rotary_embedding, given cos and sin caches
x = torch.randn(1, 2, 6, D)                      # (batch, heads, seq, head_dim)
pos = torch.arange(6)
a = angles(torch.arange(64), D)
cos, sin = a.cos().float(), a.sin().float()
for name, mine, inter in [("half-split", rope_half, False), ("interleaved", rope_interleaved, True)]:
    ref = torch.onnx.ops.rotary_embedding(x, cos, sin, pos[None], interleaved=inter)
    print(f"{name} matches torch.onnx.ops.rotary_embedding(interleaved={inter}):",
          torch.allclose(mine(x, pos), ref, atol=1e-6))
