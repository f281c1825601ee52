# mistake: the weights are the top-k probabilities from the full softmax, not renormalised, so they
# sum to less than 1 (with k = 1 the weight is the probability, not 1.0)
# fails: weights_renormalised
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)
    weights, experts = torch.topk(probs, k, dim=-1)
    counts = torch.bincount(experts.reshape(-1), minlength=E).to(logits.dtype)
    aux_loss = E * (counts / (T * k) * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
