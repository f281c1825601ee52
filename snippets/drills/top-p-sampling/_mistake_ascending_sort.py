# mistake: torch.sort is ascending by default, so the cumulative sum starts from the least likely
# tokens and the set kept is the unlikely tail, not the nucleus
# fails: matches_nucleus
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = probs.sort(dim=-1)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep_sorted = before < p
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
