import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index  # (N,)
    safe = torch.where(keep, target, torch.zeros_like(target))  # an index gather can take
    # Log-softmax with each row's max taken out first: exp never sees more than 0, so nothing
    # overflows, and the log of the sum is subtracted from the shifted logits, so it is never
    # added to a number near 1000 (float32 numbers there are 6.1e-5 apart). The shift cancels
    # exactly, so it needs no gradient.
    top = logits.detach().amax(dim=1, keepdim=True)  # (N, 1)
    shifted = logits - top  # (N, C), at most 0
    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()  # (N, C)
    nll = -log_probs.gather(1, safe[:, None]).squeeze(1)  # (N,): -log p of the target class
    uniform = -log_probs.mean(dim=1)  # (N,): the loss against eps / C on every class
    per_sample = (1 - label_smoothing) * nll + label_smoothing * uniform
    # where, not a multiply by the mask: when every target is ignored, the 1 / 0 of the mean's
    # gradient meets a where (zeros) rather than 0 * inf (NaN).
    per_sample = torch.where(keep, per_sample, torch.zeros_like(per_sample))
    return per_sample.sum() / keep.sum()
