import torch


def top_p_filter(logits: torch.Tensor, p: float) -> torch.Tensor:
    """Row by row: probabilities in float64, a stable argsort, searchsorted for the first index
    whose cumulative sum reaches p, and the first k of the order kept."""
    out = torch.full_like(logits, float("-inf"))
    keep = torch.zeros(logits.shape, dtype=torch.bool, device=logits.device)
    vocab = logits.shape[-1]
    for row in range(logits.shape[0]):
        probs = torch.softmax(logits[row].detach().double(), dim=-1)
        order = torch.argsort(probs, descending=True, stable=True)
        cumulative = torch.cumsum(probs[order], dim=0)
        if p >= 1.0:
            k = vocab
        else:
            reach = int(torch.searchsorted(cumulative, torch.tensor([p], dtype=cumulative.dtype))[0])
            k = min(reach + 1, vocab)
        keep[row, order[:k]] = True
    return torch.where(keep, logits, out)
