import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        # Every token is in the nucleus; a float32 cumsum can reach 1.0 before the tail does.
        return logits.clone()
    probs = torch.softmax(logits, dim=-1)  # exact near +-1000, where exp / sum overflows
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs  # the mass of the more likely tokens
    keep_sorted = before < p  # the token that reaches p still has before < p; the first has 0
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)  # back to vocab order
    return logits.masked_fill(~keep, float("-inf"))
