import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def blockwise_attention(q, k, v, block=4, rescale=True, trace=False):
    """Exact attention over key blocks with an online softmax; never builds (L, S)."""
    L, D = q.shape[-2], q.shape[-1]
    S = k.shape[-2]
    scale = 1.0 / math.sqrt(D)
    m = torch.full(q.shape[:-1] + (1,), float("-inf"))  # running max per query
    l = torch.zeros(q.shape[:-1] + (1,))                 # running sum of exp(score - m)
    acc = torch.zeros_like(q)                            # running sum of exp(score - m) @ v
    biggest = 0
    for start in range(0, S, block):
        kb, vb = k[..., start:start + block, :], v[..., start:start + block, :]
        s = (q @ kb.transpose(-2, -1)) * scale           # (L, block) tile of scores
        biggest = max(biggest, s.shape[-1])
        m_new = torch.maximum(m, s.amax(-1, keepdim=True))
        p = torch.exp(s - m_new)
        fix = torch.exp(m - m_new) if rescale else torch.ones_like(m)
        l = l * fix + p.sum(-1, keepdim=True)
        acc = acc * fix + p @ vb
        m = m_new
        if trace:
            print(f"  keys {start:2d}-{start + s.shape[-1] - 1:2d}: m={m[0, 0, 0, 0].item():.4f}"
                  f"  l={l[0, 0, 0, 0].item():.4f}")
    return acc / l, biggest


B, H, L, S, D = 1, 2, 8, 16, 4
q, k, v = torch.randn(B, H, L, D), torch.randn(B, H, S, D), torch.randn(B, H, S, D)

print("query 0 of head 0, block by block:")
out, biggest = blockwise_attention(q, k, v, block=4, trace=True)
ref = F.scaled_dot_product_attention(q, k, v)
full = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D), dim=-1) @ v
print("largest score tile:", (L, biggest), "vs full score matrix:", (L, S))
print("blockwise == SDPA (atol 1e-6):", torch.allclose(out, ref, atol=1e-6))
print("blockwise == softmax(QK^T/sqrt(d))V (atol 1e-6):", torch.allclose(out, full, atol=1e-6))
for block in (1, 3, 16):
    o, _ = blockwise_attention(q, k, v, block=block)
    print(f"block={block:2d} matches SDPA:", torch.allclose(o, ref, atol=1e-6))

bad, _ = blockwise_attention(q, k, v, block=4, rescale=False)
print("without the exp(m_old - m_new) rescale, matches SDPA:", torch.allclose(bad, ref, atol=1e-6),
      "| max abs error > 0.01:", (bad - ref).abs().max().item() > 0.01)
