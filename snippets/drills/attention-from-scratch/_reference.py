import math

import torch


def attention(q, k, v, mask=None, causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, H, Lq, Lk)
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril()  # key j <= query i, counted from the top left
    if mask is not None:
        allowed = allowed & mask
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # subtracts the row's max: no overflow
    # A row with every key masked is all -inf: softmax gives NaN there; the contract says zeros.
    weights = torch.where(allowed.any(dim=-1, keepdim=True), weights, torch.zeros_like(weights))
    return weights @ v
