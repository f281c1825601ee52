# mistake: the softmax runs over dim=-2, the queries, instead of the keys: each key's column sums
# to one, not each query's row
# fails: matches_sdpa
import math

import torch


def gqa_attention(q, k, v, causal=False):
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-2) @ v
