# mistake: removes every token whose cumulative sum is above p, with no shift, so the token that
# makes the sum reach p is dropped (and a tiny p drops every token)
# fails: boundary_included
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    remove_sorted = sorted_probs.cumsum(dim=-1) > p
    remove = torch.zeros_like(remove_sorted).scatter(-1, order, remove_sorted)
    return logits.masked_fill(remove, float("-inf"))
