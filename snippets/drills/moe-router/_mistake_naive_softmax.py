# mistake: softmax written as exp(logits) / sum(exp(logits)) without subtracting the row's max:
# exp(1e4) is inf, and inf / inf is NaN
# fails: large_logits
import torch


def route(logits, k):
    T, E = logits.shape
    exps = torch.exp(logits)
    probs = exps / exps.sum(dim=-1, keepdim=True)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts.reshape(-1), minlength=E).to(logits.dtype) / (T * k)
    aux_loss = E * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
