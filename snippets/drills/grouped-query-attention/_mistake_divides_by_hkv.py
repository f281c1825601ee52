# mistake: picks kv head h // Hkv for query head h (the number of kv heads) instead of
# h // (Hq // Hkv) (the group size): the two agree only when Hq = Hkv ** 2 (4 and 2) or Hkv = Hq
# is 1; with 8 query heads and 2 kv heads it indexes kv heads 0 to 3
# fails: matches_sdpa
import math

import torch


def gqa_attention(q, k, v, causal=False):
    hq, hkv = q.shape[1], k.shape[1]
    index = torch.arange(hq) // hkv
    k, v = k[:, index], v[:, index]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
