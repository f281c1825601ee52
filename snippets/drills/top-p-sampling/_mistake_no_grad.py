# mistake: decorated with @torch.no_grad(), as sampling code often is: the values are right but
# the output has no grad_fn, so no gradient reaches the logits
# fails: gradients
import torch


@torch.no_grad()
def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep_sorted = before < p
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
