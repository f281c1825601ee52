# wrong: ignored rows dropped by multiplying with the 0/1 mask: all ignored gives a NaN gradient
# (inf * 0), not zeros
import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> torch.Tensor:
    logp = torch.log_softmax(logits, dim=1)
    keep = (target != ignore_index).to(logits.dtype)
    safe_target = target.clamp(min=0) * keep.long()
    nll = -logp.gather(1, safe_target.unsqueeze(1)).squeeze(1)
    per_sample = (1.0 - label_smoothing) * nll - label_smoothing * logp.mean(dim=1)
    return (per_sample * keep).sum() / keep.sum()
