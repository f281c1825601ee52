# mistake: an off-by-one threshold: the value at sorted index k (the (k+1)-th largest), kept with
# >=, so k + 1 tokens stay
# fails: filter_values
import torch


def filter_logits(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.sort(dim=-1, descending=True).values[..., top_k:top_k + 1]
    return scaled.masked_fill(scaled < kth, float("-inf"))


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)

