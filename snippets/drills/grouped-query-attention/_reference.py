import math

import torch


def gqa_attention(q, k, v, causal=False):
    b, hq, length, d = q.shape
    hkv = k.shape[1]
    group = hq // hkv  # query heads per key/value head
    # Query head h = kv * group + j: view the heads as (Hkv, G) so each kv head meets its own
    # group of consecutive query heads by broadcasting, without copying k and v G times.
    qg = q.reshape(b, hkv, group, length, d)
    scores = qg @ k.unsqueeze(2).transpose(-2, -1) / math.sqrt(d)  # (B, Hkv, G, L, S)
    if causal:
        allowed = torch.ones(length, k.shape[-2], dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))  # top left: query i sees keys 0..i
    weights = torch.softmax(scores, dim=-1)  # over the keys; subtracts the row max
    out = weights @ v.unsqueeze(2)  # (B, Hkv, G, L, D)
    return out.reshape(b, hq, length, d)
