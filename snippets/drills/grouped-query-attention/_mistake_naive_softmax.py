# mistake: writes the softmax as exp(scores) / sum(exp(scores)) without subtracting the row's
# max: exp of a score in the thousands is inf, and inf / inf is NaN
# fails: large_logits
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
    e = scores.exp()
    return e / e.sum(dim=-1, keepdim=True) @ v
