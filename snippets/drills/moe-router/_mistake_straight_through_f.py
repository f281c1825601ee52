# mistake: f is built with a straight-through one-hot (hard + probs - probs.detach()): its value
# is the right count, but the gradient of aux_loss flows through f as well as through P
# fails: aux_loss_gradient
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    hard = torch.zeros(T, E, dtype=logits.dtype).scatter(1, experts, 1.0)
    mask = hard + probs - probs.detach()
    f = mask.sum(dim=0) / (T * k)
    aux_loss = E * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
