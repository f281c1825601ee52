import torch


def top_p_filter(logits: torch.Tensor, p: float) -> torch.Tensor:
    """Sort descending, keep a token while the probability mass before it is still below p,
    scatter the sorted mask back to vocabulary order."""
    if p >= 1.0:
        return logits.clone()
    sorted_logits, order = torch.sort(logits.detach(), dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    mass_before = torch.cumsum(probs, dim=-1) - probs
    keep_sorted = mass_before < p
    keep_sorted[..., 0] = True
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return torch.where(keep, logits, torch.full_like(logits, float("-inf")))
