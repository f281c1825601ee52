# mistake: divides the scores by D instead of sqrt(D): the same for D = 1, too flat a softmax
# for every larger head
# fails: scale
import torch


def gqa_attention(q, k, v, causal=False):
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / q.shape[-1]
    if causal:
        allowed = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
