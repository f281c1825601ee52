# mistake: expands k and v with repeat instead of repeat_interleave: the heads come out as
# 0, 1, 0, 1, ..., so query head h reads kv head h % Hkv instead of h // (Hq // Hkv); right for
# multi-query (Hkv = 1) and multi-head (Hkv = Hq) attention, wrong for every real grouping
# fails: head_pairing
import math

import torch


def gqa_attention(q, k, v, causal=False):
    group = q.shape[1] // k.shape[1]
    k = k.repeat(1, group, 1, 1)
    v = v.repeat(1, group, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
