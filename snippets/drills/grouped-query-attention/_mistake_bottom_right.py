# mistake: aligns the causal triangle at the bottom right (tril with diagonal S - L, the
# decoding convention) instead of the top left that is_causal uses: the same when L == S
# fails: causal_rectangular
import math

import torch


def gqa_attention(q, k, v, causal=False):
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        length, s = scores.shape[-2:]
        allowed = torch.ones(length, s, dtype=torch.bool).tril(diagonal=s - length)
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
