# mistake: one nucleus size for the whole batch (the largest row's), then topk: the peaked rows
# keep far more tokens than their nucleus
# fails: rows_differ
import torch


def top_p_filter(logits, p):
    if p >= 1.0:
        return logits.clone()
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, _ = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    k = int((before < p).sum(dim=-1).max())
    top = logits.topk(k, dim=-1).indices
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, top, True)
    return logits.masked_fill(~keep, float("-inf"))
