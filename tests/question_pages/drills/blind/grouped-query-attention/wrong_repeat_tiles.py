# wrong: kv heads tiled with .repeat (query head h uses kv head h % Hkv) instead of repeat_interleave
# (h // G): the groups are not consecutive query heads
import math

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  causal: bool = False) -> torch.Tensor:
    hq, hkv = q.shape[-3], k.shape[-3]
    group = hq // hkv
    k = k.repeat(1, group, 1, 1)
    v = v.repeat(1, group, 1, 1)
    L, S = q.shape[-2], k.shape[-2]
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if causal:
        allowed = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
