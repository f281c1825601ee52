# wrong: label smoothing spreads epsilon / (C - 1) over the other classes only, not epsilon / C
# over every class (its own included)
import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> torch.Tensor:
    c = logits.shape[1]
    logp = torch.log_softmax(logits, dim=1)
    keep = target != ignore_index
    safe_target = torch.where(keep, target, torch.zeros_like(target))
    if label_smoothing > 0.0 and c > 1:
        dist = torch.full_like(logits, label_smoothing / (c - 1))
        dist.scatter_(1, safe_target.unsqueeze(1), 1.0 - label_smoothing)
    else:
        dist = torch.nn.functional.one_hot(safe_target, c).to(logits.dtype)
    per_sample = -(dist * logp).sum(dim=1)
    per_sample = torch.where(keep, per_sample, torch.zeros_like(per_sample))
    return per_sample.sum() / keep.sum()
