# mistake: builds each block's causal mask from positions 0..block_size - 1 inside the block
# instead of the keys' global positions start..stop - 1, so every block is masked as if it were
# the first; right only when one block holds every key
# fails: causal
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
            scores = scores.masked_fill(torch.arange(stop - start)[None, :] > rows, float("-inf"))
        m_new = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        correction = torch.exp(m - m_new)
        p = torch.exp(scores - m_new)
        total = total * correction + p.sum(dim=-1, keepdim=True)
        acc = acc * correction + p @ v[..., start:stop, :]
        m = m_new
    return acc / total
