# mistake: takes a full softmax inside each block and averages the blocks' outputs: each block is
# normalised by its own sum, so a block of small scores weighs as much as a block of large ones;
# right only when there is one block
# fails: matches_sdpa
import math

import torch


def blockwise_attention(q, k, v, block_size, causal=False):
    length, s = q.shape[-2], k.shape[-2]
    out = torch.zeros_like(q)
    rows = torch.arange(length)[:, None]
    blocks = 0
    for start in range(0, s, block_size):
        stop = min(start + block_size, s)
        scores = q @ k[..., start:stop, :].transpose(-2, -1) / math.sqrt(q.shape[-1])
        if causal:
            scores = scores.masked_fill(torch.arange(start, stop)[None, :] > rows, float("-inf"))
        weights = torch.nan_to_num(torch.softmax(scores, dim=-1))  # a fully masked block: 0
        out = out + weights @ v[..., start:stop, :]
        blocks += 1
    return out / blocks
