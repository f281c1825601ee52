# mistake: takes the threshold from torch.kthvalue(scaled, k), which is the k-th SMALLEST value:
# it keeps the V - k + 1 largest tokens, not the k largest
# fails: filter_values
import torch


def filter_logits(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.kthvalue(top_k, dim=-1, keepdim=True).values
    return scaled.masked_fill(scaled < kth, float("-inf"))


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)

