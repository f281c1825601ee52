# mistake: P is the mean of the renormalised top-k weights (zero for the experts a token did not
# choose) instead of the mean of the full softmax over all E experts
# fails: one_expert
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts.reshape(-1), minlength=E).to(logits.dtype) / (T * k)
    P = torch.zeros(T, E, dtype=logits.dtype).scatter(1, experts, weights).mean(dim=0)
    aux_loss = E * (f * P).sum()
    return weights, experts, aux_loss
