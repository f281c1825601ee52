# mistake: f counts only each token's first choice (experts[:, 0]) over T, so with k = 2 the
# second choices are missing from the load
# fails: aux_loss_values
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts[:, 0], minlength=E).to(logits.dtype) / T
    aux_loss = E * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
