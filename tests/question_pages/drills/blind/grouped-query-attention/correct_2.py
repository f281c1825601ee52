import math

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  causal: bool = False) -> torch.Tensor:
    """No copies of k and v: q is viewed as (B, Hkv, G, L, D) (consecutive query heads share a kv
    head), scores by einsum broadcast over the group axis, an additive 0/-inf bias for the causal
    triangle (key j allowed for query i when j <= i), and a max-subtracted softmax written out.
    float16/bfloat16 are worked in float32 and cast back; float32 and float64 stay as they are."""
    dtype = q.dtype
    work = torch.promote_types(dtype, torch.float32)
    B, hq, L, D = q.shape
    hkv, S = k.shape[1], k.shape[2]
    group = hq // hkv
    qg = q.to(work).reshape(B, hkv, group, L, D)
    kw, vw = k.to(work), v.to(work)
    scores = torch.einsum("bhgld,bhsd->bhgls", qg, kw) * (1.0 / math.sqrt(D))
    if causal:
        i = torch.arange(L, device=q.device).unsqueeze(1)
        j = torch.arange(S, device=q.device).unsqueeze(0)
        bias = torch.zeros(L, S, dtype=work, device=q.device).masked_fill(j > i, float("-inf"))
        scores = scores + bias
    row_max = scores.amax(dim=-1, keepdim=True).detach()
    e = torch.exp(scores - row_max)
    weights = e / e.sum(dim=-1, keepdim=True)
    out = torch.einsum("bhgls,bhsd->bhgld", weights, vw)
    return out.reshape(B, hq, L, D).to(dtype)
