# mistake: the softmax is taken over the tokens (dim 0) instead of over the experts of each token
# (dim -1)
# fails: experts_top_k
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=0)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts.reshape(-1), minlength=E).to(logits.dtype) / (T * k)
    aux_loss = E * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
