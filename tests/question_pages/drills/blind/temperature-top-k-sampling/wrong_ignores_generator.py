# wrong: torch.multinomial is called without generator=, so draws come from torch's global generator
# and the same generator seed does not give the same tokens
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
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1).squeeze(-1)
