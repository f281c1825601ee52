# mistake: label smoothing spreads eps over the C - 1 other classes (eps / (C - 1) each, 1 - eps
# on the true class), where torch gives eps / C to every class, the true one included
# fails: label_smoothing
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    log_probs = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    nll = -log_probs.gather(1, safe[:, None]).squeeze(1)
    others = (-log_probs.sum(dim=1) - nll) / (logits.shape[1] - 1)
    per_sample = (1 - label_smoothing) * nll + label_smoothing * others
    per_sample = torch.where(keep, per_sample, torch.zeros_like(per_sample))
    return per_sample.sum() / keep.sum()
