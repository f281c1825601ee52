# mistake: softmax written as exp / sum without subtracting the row's max: exp(1000) is inf and
# the probabilities are NaN
# fails: large_logits
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    e = logits.exp()
    probs = e / e.sum(dim=-1, keepdim=True)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep_sorted = before < p
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
