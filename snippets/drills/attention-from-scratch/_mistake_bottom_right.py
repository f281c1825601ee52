# mistake: the causal triangle is aligned at the bottom right (as for a cached decoder), where
# is_causal aligns it at the top left; the two agree only when Lq == Lk
# fails: causal_rectangular
import math

import torch


def attention(q, k, v, mask=None, causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    lq, lk = scores.shape[-2:]
    allowed = torch.ones(lq, lk, dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril(diagonal=lk - lq)
    if mask is not None:
        allowed = allowed & mask
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.where(allowed.any(dim=-1, keepdim=True), weights, torch.zeros_like(weights))
    return weights @ v
