import torch


def route(logits, k):
    T, E = logits.shape
    probs = torch.softmax(logits, dim=-1)  # subtracts each row's max: logits of 1e4 stay finite
    top_probs, experts = torch.topk(probs, k, dim=-1)  # (T, k), most probable first
    weights = top_probs / top_probs.sum(dim=-1, keepdim=True)  # renormalise over the k chosen
    # f: the share of the T * k assignments each expert receives. A count of integer ids has no
    # gradient, so only P below carries the loss's gradient back to the router.
    counts = torch.zeros(E, dtype=logits.dtype).scatter_add_(
        0, experts.reshape(-1), torch.ones(T * k, dtype=logits.dtype))
    f = counts / (T * k)
    P = probs.mean(dim=0)  # (E,): the mean probability of each expert over the tokens
    aux_loss = E * (f * P).sum()
    return weights, experts, aux_loss
