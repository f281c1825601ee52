import torch


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              mask: torch.Tensor | None = None, causal: bool = False) -> torch.Tensor:
    """einsum, a finite fill value (the dtype's lowest) instead of -inf, torch.softmax, and the
    rows with no allowed key zeroed afterwards by a 0/1 factor."""
    out_dtype = q.dtype
    if q.dtype in (torch.float16, torch.bfloat16):
        q, k, v = q.float(), k.float(), v.float()
    d = q.size(-1)
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * d ** -0.5
    keep = torch.ones_like(scores, dtype=torch.bool)
    if mask is not None:
        keep = keep & mask
    if causal:
        i = torch.arange(q.size(-2), device=q.device)[:, None]
        j = torch.arange(k.size(-2), device=q.device)[None, :]
        keep = keep & (j <= i)
    scores = torch.where(keep, scores, torch.finfo(scores.dtype).min)
    weights = torch.softmax(scores, dim=-1)
    any_key = keep.any(dim=-1, keepdim=True)
    weights = weights * any_key.to(weights.dtype)
    return torch.einsum("bhqk,bhkd->bhqd", weights, v).to(out_dtype)
