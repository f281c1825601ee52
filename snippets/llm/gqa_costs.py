import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils.flop_counter import FlopCounterMode

torch.manual_seed(0)
D, Hq, Dh, T = 256, 8, 32, 64  # model width, query heads, head dim, tokens
x = torch.randn(1, T, D)
print("variant  kv_heads  k+v proj params  proj FLOPs  attention FLOPs  cache B/token/layer (fp32)")
for name, Hkv in [("MHA", 8), ("GQA", 2), ("MQA", 1)]:
    q_proj = nn.Linear(D, Hq * Dh, bias=False)
    k_proj = nn.Linear(D, Hkv * Dh, bias=False)
    v_proj = nn.Linear(D, Hkv * Dh, bias=False)
    with FlopCounterMode(display=False) as proj:
        q = q_proj(x).view(1, T, Hq, Dh).transpose(1, 2)
        k = k_proj(x).view(1, T, Hkv, Dh).transpose(1, 2)
        v = v_proj(x).view(1, T, Hkv, Dh).transpose(1, 2)
    # The math backend is made of matmuls that FlopCounterMode counts.
    with sdpa_kernel(SDPBackend.MATH), FlopCounterMode(display=False) as attn:
        F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    kv_params = k_proj.weight.numel() + v_proj.weight.numel()
    cache = k.nbytes // T + v.nbytes // T
    print(f"{name:8} {Hkv:8} {kv_params:16} {proj.get_total_flops():11} {attn.get_total_flops():16}"
          f" {cache:10}")

# The same formula, 2 x layers x kv_heads x head_dim x bytes, for 32 layers, 32 query heads,
# head_dim 128 and bf16 (2 bytes), per token and for 4096 tokens x a batch of 8.
for name, Hkv in [("MHA", 32), ("GQA", 8), ("MQA", 1)]:
    per_token = 2 * 32 * Hkv * 128 * 2
    print(f"{name}: {per_token // 1024} KiB per token, {per_token * 4096 * 8 / 2**30:.2f} GiB"
          " for 8 sequences of 4096 tokens")

# The attention FLOPs of one call without the math backend, on CPU:
with FlopCounterMode(display=False) as fused:
    F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
print("default CPU kernel, FLOPs counted:", fused.get_total_flops())
