# mistake: f is a soft count, the routing weights each expert receives summed over the tokens and
# divided by T, instead of the share of the T * k hard assignments; its value is wrong and the
# gradient flows through it
# fails: aux_loss_values
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.zeros(T, E, dtype=logits.dtype).scatter(1, experts, weights).mean(dim=0)
    aux_loss = E * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
