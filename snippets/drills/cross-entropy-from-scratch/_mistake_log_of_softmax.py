# mistake: log-probabilities as torch.softmax(...).log(): the softmax is stable, but a probability
# below about 1e-45 (float32) is 0, and log 0 = -inf makes the loss inf
# fails: large_logits
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    log_probs = torch.softmax(logits, dim=1).log()
    nll = -log_probs.gather(1, safe[:, None]).squeeze(1)
    per_sample = nll
    if label_smoothing:
        uniform = -log_probs.mean(dim=1)
        per_sample = (1 - label_smoothing) * nll + label_smoothing * uniform
    per_sample = torch.where(keep, per_sample, torch.zeros_like(per_sample))
    return per_sample.sum() / keep.sum()
