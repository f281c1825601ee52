import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

warnings.filterwarnings("ignore", message="flex_attention called without torch.compile")
torch.manual_seed(0)
B, H, L, D = 1, 4, 512, 16
q, k, v = (torch.randn(B, H, L, D) for _ in range(3))
slopes = torch.tensor([2.0 ** -(i + 1) for i in range(H)])   # one ALiBi-like slope per head


def alibi(score, b, h, q_idx, kv_idx):   # score_mod: edits one score, after the scaling
    return score + slopes[h] * (kv_idx - q_idx)


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


causal_mask = create_block_mask(causal, None, None, L, L, device="cpu")
out = flex_attention(q, k, v, score_mod=alibi, block_mask=causal_mask)

# the same thing as an explicit (H, L, L) float mask for SDPA: bias, and -inf above the diagonal
pos = torch.arange(L)
bias = slopes[:, None, None] * (pos[None, :] - pos[:, None])[None]
bias = bias.masked_fill(pos[None, :] > pos[:, None], float("-inf"))
ref = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
print("score_mod ALiBi + causal mask_mod == SDPA with explicit bias mask:",
      torch.allclose(out, ref, atol=1e-5))
print("explicit mask holds", bias.numel(), "floats; the BlockMask's block tables hold",
      causal_mask.kv_num_blocks.numel() + causal_mask.kv_indices.numel()
      + causal_mask.full_kv_num_blocks.numel() + causal_mask.full_kv_indices.numel(), "ints")

# masking inside score_mod gives the same numbers but no block sparsity
def causal_in_score(score, b, h, q_idx, kv_idx):
    return torch.where(q_idx >= kv_idx, score, -float("inf"))


out2 = flex_attention(q, k, v, score_mod=causal_in_score)
print("causal via score_mod == SDPA causal:",
      torch.allclose(out2, F.scaled_dot_product_attention(q, k, v, is_causal=True), atol=1e-5))
print("a BlockMask from an all-True mask_mod, sparsity:",
      create_block_mask(lambda b, h, q_idx, kv_idx: q_idx >= 0, None, None, L, L, device="cpu").sparsity(), "%")


def sliding_window(b, h, q_idx, kv_idx):  # causal, last 128 keys only
    return (q_idx >= kv_idx) & (q_idx - kv_idx < 128)


for n in (512, 2048):
    bm = create_block_mask(sliding_window, None, None, n, n, device="cpu")
    print(f"sliding window 128, L={n}: sparsity {bm.sparsity():.2f} %")
