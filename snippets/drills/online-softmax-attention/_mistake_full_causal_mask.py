# mistake: builds the causal mask once as an (L, S) triangle and slices a block of it each step:
# the scores stay blockwise, but the mask alone is the O(L * S) matrix the algorithm avoids
# fails: no_full_matrix
import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    length, s = q.shape[-2], k.shape[-2]
    if causal:
        allowed = torch.ones(length, s, dtype=torch.bool).tril()
    m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype)
    total = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype)
    acc = torch.zeros_like(q)
    for start in range(0, s, block_size):
        stop = min(start + block_size, s)
        scores = q @ k[..., start:stop, :].transpose(-2, -1) / math.sqrt(q.shape[-1])
        if causal:
            scores = scores.masked_fill(~allowed[:, start:stop], float("-inf"))
        m_new = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        correction = torch.exp(m - m_new)
        p = torch.exp(scores - m_new)
        total = total * correction + p.sum(dim=-1, keepdim=True)
        acc = acc * correction + p @ v[..., start:stop, :]
        m = m_new
    return acc / total
