# mistake: rescales the running sum when the max grows but not the accumulator: the weighted sum
# of v keeps the blocks before the new max at their old, larger scale
# fails: matches_sdpa
import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    length, s = q.shape[-2], k.shape[-2]
    m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype)
    total = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype)
    acc = torch.zeros_like(q)
    rows = torch.arange(length)[:, None]
    for start in range(0, s, block_size):
        stop = min(start + block_size, s)
        scores = q @ k[..., start:stop, :].transpose(-2, -1) / math.sqrt(q.shape[-1])
        if causal:
            scores = scores.masked_fill(torch.arange(start, stop)[None, :] > rows, float("-inf"))
        m_new = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        p = torch.exp(scores - m_new)
        total = total * torch.exp(m - m_new) + p.sum(dim=-1, keepdim=True)
        acc = acc + p @ v[..., start:stop, :]
        m = m_new
    return acc / total
