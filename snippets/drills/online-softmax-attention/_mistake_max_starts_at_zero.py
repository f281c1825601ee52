# mistake: starts the running max at 0 instead of -inf: the max then never falls below 0, so a
# query whose every score is far below 0 (under about -745 in float64) has exp(score - 0) = 0 for
# every key, and its output is 0 / 0 = NaN
# fails: large_logits
import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    length, s = q.shape[-2], k.shape[-2]
    m = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype)
    total = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype)
    acc = torch.zeros_like(q)
    rows = torch.arange(length)[:, None]
    for start in range(0, s, block_size):
        stop = min(start + block_size, s)
        scores = q @ k[..., start:stop, :].transpose(-2, -1) / math.sqrt(q.shape[-1])
        if causal:
            scores = scores.masked_fill(torch.arange(start, stop)[None, :] > rows, float("-inf"))
        m_new = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        correction = torch.exp(m - m_new)
        p = torch.exp(scores - m_new)
        total = total * correction + p.sum(dim=-1, keepdim=True)
        acc = acc * correction + p @ v[..., start:stop, :]
        m = m_new
    return acc / total
