# mistake: the smoothing term is averaged over every sample, ignored ones included, while the nll
# is averaged over the kept ones: padding rows still pull on the loss
# fails: label_smoothing_ignore_index
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    log_probs = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    nll = -log_probs.gather(1, safe[:, None]).squeeze(1)
    nll = torch.where(keep, nll, torch.zeros_like(nll)).sum() / keep.sum()
    uniform = -log_probs.mean(dim=1).mean()
    return (1 - label_smoothing) * nll + label_smoothing * uniform
