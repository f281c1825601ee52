# mistake: relies on broadcasting instead of expanding k and v: it works when Hkv = 1 (the kv head
# broadcasts) and when Hkv = Hq, and fails for any real grouping (8 query heads against 2 kv heads)
# fails: matches_sdpa
import math

import torch


def gqa_attention(q, k, v, causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
