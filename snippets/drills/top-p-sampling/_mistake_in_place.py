# mistake: writes -inf into the caller's logits (logits[mask] = -inf) and returns them
# fails: not_in_place
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    remove_sorted = before >= p
    remove = torch.zeros_like(remove_sorted).scatter(-1, order, remove_sorted)
    logits[remove] = float("-inf")
    return logits
