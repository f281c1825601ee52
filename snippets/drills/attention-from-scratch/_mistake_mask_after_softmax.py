# mistake: the mask zeroes weights after the softmax, so the rows no longer sum to one
# fails: padding_mask
import math

import torch


def attention(q, k, v, mask=None, causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & mask
    weights = torch.softmax(scores, dim=-1) * allowed
    return weights @ v
