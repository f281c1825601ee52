# mistake: the scores are not divided by sqrt(D), so the softmax is far too peaked
# fails: matches_sdpa
import torch


def attention(q, k, v, mask=None, causal=False):
    scores = q @ k.transpose(-2, -1)
    allowed = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & mask
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    weights = torch.where(allowed.any(dim=-1, keepdim=True), weights, torch.zeros_like(weights))
    return weights @ v
