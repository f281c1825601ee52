import torch


def blockwise_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int,
                        causal: bool = False) -> torch.Tensor:
    L, S, D = q.shape[-2], k.shape[-2], q.shape[-1]
    qs = q * D ** -0.5  # scale the queries once instead of every block of scores
    running_max = None
    running_sum = None
    out = None
    rows = torch.arange(L, device=q.device)
    for start in range(0, S, block_size):
        if causal and start > L - 1:
            break  # every later key lies above the diagonal of every query
        kb = k.narrow(-2, start, min(block_size, S - start))
        vb = v.narrow(-2, start, kb.shape[-2])
        scores = torch.einsum("...ld,...sd->...ls", qs, kb)
        if causal:
            cols = torch.arange(start, start + kb.shape[-2], device=q.device)
            bias = torch.zeros(L, kb.shape[-2], dtype=q.dtype, device=q.device)
            bias = bias.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
            scores = scores + bias
        # the max is only a shift that cancels in the final division: no gradient through it
        block_max = scores.detach().amax(dim=-1)
        if running_max is None:
            # the first block holds key 0, which every query sees (also under causal): finite max
            running_max = block_max
            weights = torch.exp(scores - running_max.unsqueeze(-1))
            running_sum = weights.sum(dim=-1)
            out = torch.einsum("...ls,...sd->...ld", weights, vb)
            continue
        new_max = torch.maximum(running_max, block_max)
        correction = torch.exp(running_max - new_max)
        weights = torch.exp(scores - new_max.unsqueeze(-1))
        running_sum = correction * running_sum + weights.sum(dim=-1)
        out = correction.unsqueeze(-1) * out + torch.einsum("...ls,...sd->...ld", weights, vb)
        running_max = new_max
    return out / running_sum.unsqueeze(-1)
