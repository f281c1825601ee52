import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> torch.Tensor:
    """log_softmax, gather of the target's log-probability, the smoothing term as the mean
    log-probability of the row, and a where() (not a multiply) to drop the ignored rows, so that
    0 / 0 when everything is ignored gives a NaN loss but a zero gradient."""
    logp = torch.log_softmax(logits, dim=1)
    keep = target != ignore_index
    safe_target = torch.where(keep, target, torch.zeros_like(target))
    nll = -logp.gather(1, safe_target.unsqueeze(1)).squeeze(1)
    per_sample = nll
    if label_smoothing > 0.0:
        smooth = -logp.mean(dim=1)
        per_sample = (1.0 - label_smoothing) * nll + label_smoothing * smooth
    per_sample = torch.where(keep, per_sample, torch.zeros_like(per_sample))
    return per_sample.sum() / keep.sum()
