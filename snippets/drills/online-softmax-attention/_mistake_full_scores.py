# mistake: computes the whole (L, S) score matrix first and then runs the online softmax over its
# column blocks: the values are right, but the memory the blocks were meant to save is spent
# fails: no_full_matrix
import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    length, s = q.shape[-2], k.shape[-2]
    all_scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, H, L, S)
    m = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype)
    total = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype)
    acc = torch.zeros_like(q)
    rows = torch.arange(length)[:, None]
    for start in range(0, s, block_size):
        stop = min(start + block_size, s)
        scores = all_scores[..., start:stop]
        if causal:
            scores = scores.masked_fill(torch.arange(start, stop)[None, :] > rows, float("-inf"))
        m_new = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        correction = torch.exp(m - m_new)
        p = torch.exp(scores - m_new)
        total = total * correction + p.sum(dim=-1, keepdim=True)
        acc = acc * correction + p @ v[..., start:stop, :]
        m = m_new
    return acc / total
