import torch


def filter_logits(logits: torch.Tensor, temperature: float, top_k: int | None = None) -> torch.Tensor:
    """Scaled logits; below the k-th largest scaled value of the row (torch.topk's last value),
    -inf. A comparison against that value keeps every token tied with it."""
    scaled = logits / temperature
    vocab = scaled.shape[-1]
    if top_k is None or top_k >= vocab:
        return scaled
    kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
    return scaled.masked_fill(scaled < kth, float("-inf"))


def sample(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
           generator: torch.Generator | None = None) -> torch.Tensor:
    """Greedy argmax at temperature 0, else torch.multinomial on the softmax of the filtered
    logits with the given generator."""
    if temperature == 0:
        return torch.argmax(logits, dim=-1).to(torch.int64)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1).to(torch.int64)
