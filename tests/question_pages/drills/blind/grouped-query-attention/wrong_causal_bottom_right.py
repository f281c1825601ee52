# wrong: the causal triangle aligned at the bottom right (key j allowed when j <= i + S - L, as in a
# KV-cache decode), not at the top left as is_causal; differs only when L != S
import math

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  causal: bool = False) -> torch.Tensor:
    hq, hkv = q.shape[-3], k.shape[-3]
    group = hq // hkv
    k = k.repeat_interleave(group, dim=-3)
    v = v.repeat_interleave(group, dim=-3)
    L, S = q.shape[-2], k.shape[-2]
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=S - L)
        scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
