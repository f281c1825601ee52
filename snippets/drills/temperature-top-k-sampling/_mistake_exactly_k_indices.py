# mistake: keeps exactly the k indices torch.topk returns (scattered into a mask): where tokens tie
# at the k-th largest value, topk keeps some of them and drops the others, and the contract keeps
# every tied token
# fails: filter_ties
import torch


def filter_logits(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    index = scaled.topk(top_k, dim=-1).indices
    keep = torch.zeros_like(scaled, dtype=torch.bool).scatter(-1, index, True)
    return scaled.masked_fill(~keep, float("-inf"))


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)

