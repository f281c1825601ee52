import math

import torch


def gqa_attention(q, k, v, causal=False):
    b, hq, length, d = q.shape
    hkv, s = k.shape[1], k.shape[2]
    group = hq // hkv  # query heads per key/value head
    # Query head h = kv * group + j: stack the G query heads of each kv head along the rows,
    # (B, Hkv, G * L, D), so one matmul per kv head scores them all and k and v are not copied.
    qg = q.reshape(b, hkv, group * length, d)
    scores = (qg @ k.transpose(-2, -1) / math.sqrt(d)).view(b, hkv, group, length, s)
    if causal:
        allowed = torch.ones(length, s, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))  # top left: query i sees keys 0..i
    weights = torch.softmax(scores, dim=-1)  # over the keys; subtracts the row max
    out = weights.view(b, hkv, group * length, s) @ v  # (B, Hkv, G * L, D)
    return out.reshape(b, hq, length, d)
