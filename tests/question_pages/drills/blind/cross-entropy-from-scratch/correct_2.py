import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> torch.Tensor:
    """A logsumexp written out (max subtracted), the smoothed target as a dense (N, C)
    distribution built by scatter, and the ignored rows dropped with masked_fill."""
    n, c = logits.shape
    ignored = target == ignore_index
    row_max = logits.max(dim=1, keepdim=True).values.detach()
    lse = row_max.squeeze(1) + torch.log(torch.exp(logits - row_max).sum(dim=1))
    idx = target.masked_fill(ignored, 0).unsqueeze(1)
    dist = torch.full_like(logits, label_smoothing / c)
    dist = dist.scatter_add(1, idx, torch.full((n, 1), 1.0 - label_smoothing,
                                               dtype=logits.dtype, device=logits.device))
    per_sample = lse - (dist * logits).sum(dim=1)       # the target distribution sums to 1
    per_sample = per_sample.masked_fill(ignored, 0.0)
    count = (~ignored).sum().to(logits.dtype)
    return per_sample.sum() / count
