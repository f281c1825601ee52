import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  causal: bool = False) -> torch.Tensor:
    """Grouped-query attention, as torch.nn.functional.scaled_dot_product_attention(q, k, v,
    is_causal=causal, enable_gqa=True), written without calling it.

    q: (B, Hq, L, D); k and v: (B, Hkv, S, D), floating point, all of one dtype.
    Hq is a multiple of Hkv. Query heads come in Hkv groups of G = Hq // Hkv CONSECUTIVE heads, and
        each group shares one key/value head: query head h uses key/value head h // G (with Hq = 8
        and Hkv = 2, query heads 0-3 use kv head 0 and heads 4-7 use kv head 1).
        Hkv = 1 is multi-query attention; Hkv = Hq is ordinary multi-head attention.
    Scores are q @ k^T / sqrt(D), with a softmax over the S keys; the output is the weights @ v.
    causal: query i attends to keys 0..i only (the lower triangle aligned at the top left, as
        is_causal), also when L != S.
    Must stay exact for large scores (thousands), and be differentiable with respect to q, k and v.
    Computed in q's dtype (float64 inputs stay float64). Returns (B, Hq, L, D), in q's dtype.
    """
    raise NotImplementedError("write gqa_attention here")
