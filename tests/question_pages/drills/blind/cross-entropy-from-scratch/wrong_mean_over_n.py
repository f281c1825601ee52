# wrong: the mean divides by N, every sample, instead of by the number of targets kept
import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> torch.Tensor:
    logp = torch.log_softmax(logits, dim=1)
    keep = target != ignore_index
    safe_target = torch.where(keep, target, torch.zeros_like(target))
    nll = -logp.gather(1, safe_target.unsqueeze(1)).squeeze(1)
    per_sample = (1.0 - label_smoothing) * nll - label_smoothing * logp.mean(dim=1)
    per_sample = torch.where(keep, per_sample, torch.zeros_like(per_sample))
    return per_sample.sum() / target.shape[0]
