# mistake: the routing is computed on logits.detach() ("routing is a discrete choice"), so the
# values are right but neither weights nor aux_loss sends any gradient to the router
# fails: weights_gradient
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits.detach(), dim=-1)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts.reshape(-1), minlength=E).to(logits.dtype) / (T * k)
    aux_loss = E * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
