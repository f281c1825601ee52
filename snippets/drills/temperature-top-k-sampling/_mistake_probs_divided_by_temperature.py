# mistake: applies the temperature to the probabilities (softmax, then divide by T) instead of to
# the logits: torch.multinomial renormalises its weights, so every temperature samples as T = 1
# fails: temperature_distribution
import torch


def filter_logits(logits, temperature, top_k=None):
    if top_k is None or top_k >= logits.shape[-1]:
        return logits.clone()
    kth = logits.topk(top_k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1) / temperature
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
