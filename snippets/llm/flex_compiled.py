#| timeout: 240
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
B, H, L, D = 1, 2, 256, 16
q, k, v = (torch.randn(B, H, L, D) for _ in range(3))


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


block_mask = create_block_mask(causal, None, None, L, L, device="cpu")
compiled_flex = torch.compile(flex_attention)      # Inductor generates a fused CPU kernel
out = compiled_flex(q, k, v, block_mask=block_mask)
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("compiled flex_attention on CPU == SDPA(is_causal=True):", torch.allclose(out, ref, atol=1e-5))
