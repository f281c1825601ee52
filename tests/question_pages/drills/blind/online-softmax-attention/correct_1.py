import math

import torch


def blockwise_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int,
                        causal: bool = False) -> torch.Tensor:
    L, S, D = q.shape[-2], k.shape[-2], q.shape[-1]
    scale = 1.0 / math.sqrt(D)
    batch = q.shape[:-2]
    m = torch.full((*batch, L, 1), float("-inf"), dtype=q.dtype, device=q.device)
    l_sum = torch.zeros((*batch, L, 1), dtype=q.dtype, device=q.device)
    acc = torch.zeros((*batch, L, v.shape[-1]), dtype=q.dtype, device=q.device)
    q_idx = torch.arange(L, device=q.device).unsqueeze(1)
    for start in range(0, S, block_size):
        end = min(start + block_size, S)
        kb = k[..., start:end, :]
        vb = v[..., start:end, :]
        s = (q @ kb.transpose(-2, -1)) * scale
        if causal:
            k_idx = torch.arange(start, end, device=q.device).unsqueeze(0)
            s = s.masked_fill(k_idx > q_idx, float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        # a query that has seen no key yet keeps m_new = -inf: use 0 there so exp gives 0, not NaN
        m_safe = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)
        alpha = torch.exp(m - m_safe)
        p = torch.exp(s - m_safe)
        l_sum = l_sum * alpha + p.sum(dim=-1, keepdim=True)
        acc = acc * alpha + p @ vb
        m = m_new
    return acc / l_sum
