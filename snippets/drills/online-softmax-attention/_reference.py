import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    b, h, length, d = q.shape
    s = k.shape[-2]
    scale = 1.0 / math.sqrt(d)
    # Per query: the running max m, the running sum l of exp(score - m), the running
    # sum acc of exp(score - m) * v. Nothing here grows with S.
    m = torch.full((b, h, length, 1), float("-inf"), dtype=q.dtype, device=q.device)
    total = torch.zeros(b, h, length, 1, dtype=q.dtype, device=q.device)
    acc = torch.zeros(b, h, length, v.shape[-1], dtype=q.dtype, device=q.device)
    rows = torch.arange(length, device=q.device)[:, None]
    for start in range(0, s, block_size):
        stop = min(start + block_size, s)  # the last block may be shorter
        scores = q @ k[..., start:stop, :].transpose(-2, -1) * scale  # (B, H, L, block)
        if causal:
            cols = torch.arange(start, stop, device=q.device)[None, :]  # global key positions
            scores = scores.masked_fill(cols > rows, float("-inf"))
        m_new = torch.maximum(m, scores.amax(dim=-1, keepdim=True))
        # Key 0 is in the first block and every query may see it, so m_new is finite from the
        # first block on: exp(-inf - m_new) is 0, never NaN.
        correction = torch.exp(m - m_new)  # rescales what was summed against the old max
        p = torch.exp(scores - m_new)
        total = total * correction + p.sum(dim=-1, keepdim=True)
        acc = acc * correction + p @ v[..., start:stop, :]
        m = m_new
    return acc / total  # normalise once, at the end
