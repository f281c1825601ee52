# mistake: the mask is computed in sorted order and applied to the logits in vocabulary order,
# without scattering it back: it keeps the first positions, not the likely tokens
# fails: unsorted
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, _ = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep = before < p
    return logits.masked_fill(~keep, float("-inf"))
