# wrong: no special case for p = 1: in float32 the mass before the least likely tokens rounds to 1,
# so p = 1 drops them instead of keeping every token
import torch


def top_p_filter(logits: torch.Tensor, p: float) -> torch.Tensor:
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    keep_sorted = (torch.cumsum(probs, dim=-1) - probs) < p
    keep_sorted[..., 0] = True
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
