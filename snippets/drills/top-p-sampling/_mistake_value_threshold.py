# mistake: keeps every logit at least the last kept one's value: with tied logits at the edge it
# keeps all of them, a set larger than the nucleus
# fails: ties
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    sorted_logits, _ = logits.sort(dim=-1, descending=True)
    sorted_probs = torch.softmax(sorted_logits, dim=-1)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    size = (before < p).sum(dim=-1, keepdim=True)
    edge = sorted_logits.gather(-1, size - 1)
    return logits.masked_fill(logits < edge, float("-inf"))
