# mistake: masked_fill(-inf) then softmax, with nothing for a row whose keys are all masked:
# that row is NaN (and so is every gradient that flows through it)
# fails: fully_masked_row
import math

import torch


def attention(q, k, v, mask=None, causal=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & mask
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
