# mistake: loops over range(S // block_size) full blocks, so when block_size does not divide S the
# keys of the last, shorter block are never seen
# fails: partial_last_block
import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    length, s = q.shape[-2], k.shape[-2]
    m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype)
    total = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype)
    acc = torch.zeros_like(q)
    rows = torch.arange(length)[:, None]
    for i in range(max(s // block_size, 1)):
        start, stop = i * block_size, min((i + 1) * block_size, s)
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
