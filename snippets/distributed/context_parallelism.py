import torch
import torch.nn.functional as F

torch.manual_seed(0)
N = 4                      # simulated context-parallel ranks
B, H, L, D = 1, 2, 32, 8   # the whole sequence: 32 tokens
q, k, v = (torch.randn(B, H, L, D, dtype=torch.float64) for _ in range(3))
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)

# head-tail sharding: cut the sequence into 2N chunks, rank i holds chunks i and 2N-1-i
chunks = torch.arange(L).chunk(2 * N)
pos = [torch.cat([chunks[i], chunks[2 * N - 1 - i]]) for i in range(N)]  # token positions


def block_attention(q_blk, k_blk, v_blk, q_pos, k_pos):
    """Attention of some queries over one block of keys: partial output and its logsumexp."""
    s = q_blk @ k_blk.transpose(-2, -1) / D ** 0.5
    s = s.masked_fill(k_pos[None, :] > q_pos[:, None], float("-inf"))  # causal, by position
    lse = torch.logsumexp(s, dim=-1, keepdim=True)      # -inf where every key is masked
    out = torch.nan_to_num(torch.softmax(s, dim=-1))    # 0 there instead of NaN
    return out @ v_blk, lse


def merge(out, lse, blk_out, blk_lse):
    """Online-softmax merge of two partial results over disjoint key sets."""
    new_lse = torch.logaddexp(lse, blk_lse)
    w_old = torch.nan_to_num(torch.exp(lse - new_lse))
    w_new = torch.nan_to_num(torch.exp(blk_lse - new_lse))
    return w_old * out + w_new * blk_out, new_lse


q_loc = [q[:, :, p] for p in pos]
kv = [(k[:, :, p], v[:, :, p], p) for p in pos]          # the K/V block each rank holds now
out = [torch.zeros(B, H, 2 * L // (2 * N), D, dtype=q.dtype) for _ in range(N)]
lse = [torch.full((B, H, 2 * L // (2 * N), 1), float("-inf"), dtype=q.dtype) for _ in range(N)]
pairs = [0] * N                                           # query-key pairs each rank computes
for step in range(N):
    for r in range(N):
        k_blk, v_blk, k_pos = kv[r]
        o, s = block_attention(q_loc[r], k_blk, v_blk, pos[r], k_pos)
        out[r], lse[r] = merge(out[r], lse[r], o, s)
        pairs[r] += int((k_pos[None, :] <= pos[r][:, None]).sum())
    kv = [kv[(r - 1) % N] for r in range(N)]              # ring: receive from rank r-1

full = torch.empty_like(ref)
for r in range(N):
    full[:, :, pos[r]] = out[r]
print("rank 0 holds tokens", pos[0].tolist())
print("max |ring - sdpa| below 1e-12:", (full - ref).abs().max().item() < 1e-12)

contiguous = [torch.arange(L).chunk(N)[r] for r in range(N)]
work_contig = [int((p[:, None] >= torch.arange(L)[None, :]).sum()) for p in contiguous]
print("causal pairs per rank, contiguous shards:", work_contig)
print("causal pairs per rank, head-tail shards: ", pairs)
