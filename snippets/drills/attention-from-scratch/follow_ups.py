#| fresh: true
# The follow-ups of attention-from-scratch, on the pinned torch: which kernel SDPA uses on CPU,
# grouped-query heads, and where the causal triangle sits when there is one query (decoding).
import resource

import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

torch.manual_seed(0)
q = torch.randn(1, 2, 4, 8, requires_grad=True)
k, v = torch.randn(1, 2, 6, 8), torch.randn(1, 2, 6, 8)
print("SDPA on CPU, float32:", type(F.scaled_dot_product_attention(q, k, v).grad_fn).__name__)

# Grouped-query attention: 8 query heads share 2 key/value heads (4 each).
qg, kg, vg = torch.randn(1, 8, 4, 16), torch.randn(1, 2, 4, 16), torch.randn(1, 2, 4, 16)
gqa = F.scaled_dot_product_attention(qg, kg, vg, enable_gqa=True)
repeated = F.scaled_dot_product_attention(qg, kg.repeat_interleave(4, dim=1),
                                          vg.repeat_interleave(4, dim=1))
print("enable_gqa=True equals repeat_interleave of k and v:", torch.allclose(gqa, repeated, atol=1e-6))
try:
    F.scaled_dot_product_attention(qg, kg, vg)
except RuntimeError as exc:
    print("without enable_gqa:", exc)

# Decoding: one new query against 5 cached keys.
q1, k5, v5 = torch.randn(1, 1, 1, 8), torch.randn(1, 1, 5, 8), torch.randn(1, 1, 5, 8)
top_left = F.scaled_dot_product_attention(q1, k5, v5, is_causal=True)
print("is_causal=True, Lq=1: the query sees only key 0:", torch.allclose(top_left[0, 0, 0], v5[0, 0, 0]))
lower_right = F.scaled_dot_product_attention(q1, k5, v5, attn_mask=causal_lower_right(1, 5))
print("causal_lower_right(1, 5) equals no mask at all:",
      torch.allclose(lower_right, F.scaled_dot_product_attention(q1, k5, v5), atol=1e-6))

# What a from-scratch version holds: a (B, H, Lq, Lk) score matrix, and autograd keeps the weights.
# Measured: the growth of this process's peak memory (a fresh python) for one forward at 4,096
# tokens and 8 heads, where one float32 (1, 8, 4096, 4096) matrix is 512 MiB.
def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


q, k, v = (torch.randn(1, 8, 4096, 64) for _ in range(3))
with torch.no_grad():
    before = peak_mib()
    fused = F.scaled_dot_product_attention(q, k, v)
    fused_growth = peak_mib() - before
    before = peak_mib()
    mine = torch.softmax(q @ k.transpose(-2, -1) / 8, dim=-1) @ v
    scratch_growth = peak_mib() - before
print("same output:", torch.allclose(fused, mine, atol=1e-5))
print("peak memory grew by less than 64 MiB for SDPA:", fused_growth < 64)
print("peak memory grew by more than 900 MiB from scratch (scores and weights):",
      scratch_growth > 900)
for length in (1024, 4096, 16384):
    print(f"B=1, H=32, L={length}: one float32 (B, H, L, L) matrix is "
          f"{32 * length * length * 4 / 2**30:.3g} GiB")
