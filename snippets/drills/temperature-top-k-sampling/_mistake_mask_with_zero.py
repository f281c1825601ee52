# mistake: sets the logits outside the top k to 0 instead of -inf (multiplying by a 0/1 mask):
# exp(0) = 1, so those tokens keep a probability, the largest one when the kept logits are negative
# fails: never_outside_top_k
import torch


def filter_logits(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.topk(top_k, dim=-1).values[..., -1:]
    return scaled * (scaled >= kth)


def sample(logits, temperature=1.0, top_k=None, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)

