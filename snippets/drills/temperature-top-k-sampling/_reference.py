import torch


def filter_logits(logits, temperature, top_k=None):
    scaled = logits / temperature  # a new tensor; dividing by T > 0 keeps the order of the logits
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.topk(top_k, dim=-1).values[..., -1:]  # the k-th largest of each row, kept as (B, 1)
    return scaled.masked_fill(scaled < kth, float("-inf"))  # ties at the k-th value all stay


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)  # greedy; the first index among ties; the top k hold the argmax
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)  # exp(-inf) = 0
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
