# mistake: the factor E is missing, so perfectly balanced routing gives 1/E instead of 1.0 and the
# loss shrinks as experts are added
# fails: uniform_logits
import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)
    top, experts = torch.topk(probs, k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    f = torch.bincount(experts.reshape(-1), minlength=E).to(logits.dtype) / (T * k)
    aux_loss = (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
