import math

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  causal: bool = False) -> torch.Tensor:
    """Each kv head repeated G times with repeat_interleave (kv head h // G for query head h),
    then ordinary attention with a top-left causal mask and torch.softmax, all in q's dtype."""
    hq, hkv = q.shape[-3], k.shape[-3]
    group = hq // hkv
    k = k.repeat_interleave(group, dim=-3)
    v = v.repeat_interleave(group, dim=-3)
    L, S = q.shape[-2], k.shape[-2]
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
