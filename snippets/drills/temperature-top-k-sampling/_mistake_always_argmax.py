# mistake: "samples" with argmax of the filtered probabilities at every temperature: the output
# never varies, and the tokens other than the most likely one are never drawn
# fails: temperature_distribution
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
    return torch.softmax(filter_logits(logits, temperature, top_k), dim=-1).argmax(dim=-1)
