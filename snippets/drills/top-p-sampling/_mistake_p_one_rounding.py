# mistake: no case for p = 1: in a peaked float32 row the cumulative sum reaches 1.0 by rounding
# before the last tokens, and those tokens are dropped
# fails: p_one
import torch


def top_p_filter(logits, p):
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep_sorted = before < p
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
