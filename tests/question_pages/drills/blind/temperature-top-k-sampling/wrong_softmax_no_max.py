# wrong: the probabilities as exp(filtered) / sum without subtracting the row maximum: logits of 1e4
# overflow to inf, the probabilities are NaN and torch.multinomial raises
import torch


def filter_logits(logits: torch.Tensor, temperature: float, top_k: int | None = None) -> torch.Tensor:
    scaled = logits / temperature
    vocab = scaled.shape[-1]
    if top_k is None or top_k >= vocab:
        return scaled
    kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
    return scaled.masked_fill(scaled < kth, float("-inf"))


def sample(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
           generator: torch.Generator | None = None) -> torch.Tensor:
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    e = torch.exp(filter_logits(logits, temperature, top_k))
    probs = e / e.sum(dim=-1, keepdim=True)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
