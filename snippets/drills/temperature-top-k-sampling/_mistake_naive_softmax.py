# mistake: the probabilities as exp(filtered) / sum without subtracting the row's max: exp of a
# logit of 1e4 is inf, inf / inf is NaN, and torch.multinomial raises
# fails: large_logits
import torch


def filter_logits(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.topk(top_k, dim=-1).values[..., -1:]
    return scaled.masked_fill(scaled < kth, float("-inf"))


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    weights = filter_logits(logits, temperature, top_k).exp()
    probs = weights / weights.sum(dim=-1, keepdim=True)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
