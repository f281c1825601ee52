import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
B, H, L, D = 1, 2, 512, 16
q, k, v = (torch.randn(B, H, L, D) for _ in range(3))


def causal(b, h, q_idx, kv_idx):        # mask_mod: True where attention is allowed
    return q_idx >= kv_idx


block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=L, KV_LEN=L, device="cpu")
print(block_mask)
print("block size:", block_mask.BLOCK_SIZE, "| sparsity:", block_mask.sparsity(), "%")
print("partial blocks per query block:", block_mask.kv_num_blocks[0, 0].tolist())
print("full blocks per query block:   ", block_mask.full_kv_num_blocks[0, 0].tolist())

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = flex_attention(q, k, v, block_mask=block_mask)    # eager, not compiled
print("warning:", str(caught[0].message).splitlines()[0])
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("flex_attention(causal BlockMask) == SDPA(is_causal=True):", torch.allclose(out, ref, atol=1e-5))
