# mistake: takes causal and ignores it: every query sees every key, later ones too
# fails: causal
import math

import torch


def gqa_attention(q, k, v, causal=False):
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
