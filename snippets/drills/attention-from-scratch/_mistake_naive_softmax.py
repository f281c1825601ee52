# mistake: softmax written as exp / sum without subtracting the row's max: large scores overflow
# fails: large_logits
import math

import torch


def attention(q, k, v, mask=None, causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & mask
    e = scores.exp() * allowed
    weights = e / e.sum(dim=-1, keepdim=True).clamp_min(1e-30)
    return weights @ v
