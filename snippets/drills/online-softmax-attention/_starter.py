import torch


def blockwise_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int,
                        causal: bool = False) -> torch.Tensor:
    """Exact scaled dot-product attention computed over blocks of keys with an online softmax
    (the FlashAttention algorithm), equal to
    torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal).

    q: (B, H, L, D); k and v: (B, H, S, D), floating point, all of one dtype.
    block_size: an int >= 1. Walk the keys in order in blocks of block_size (the last block holds
        what is left, so S need not be a multiple of block_size; block_size may be 1 or >= S).
        For each block compute its scores q @ k_block^T / sqrt(D), then update, per query, a
        running max of the scores seen so far, a running sum of their exponentials and a running
        weighted sum of v, rescaling the earlier sum and accumulator whenever the max grows;
        divide by the sum once, at the end.
    Memory: never form an (L, S) matrix (scores, weights or a mask): apart from q, k, v and
        copies or slices of them, every tensor you create holds fewer than L * S elements whenever
        block_size < S. (The judge records the size of every tensor the ops create, with
        B = H = 1 and D = 2, so that copies of q, k and v stay below L * S.)
    causal: query i attends to keys 0..i only (the lower triangle aligned at the top left, as
        is_causal), also when L != S.
    Must stay exact for scores in the thousands (exp of them overflows without the max), be
    differentiable with respect to q, k and v, and compute in q's dtype (float64 stays float64).
    Returns (B, H, L, D), in q's dtype.
    """
    raise NotImplementedError("write blockwise_attention here")
