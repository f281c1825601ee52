# wrong: keeps exactly the k indices torch.topk returns (scattered into a -inf tensor), so of the tokens
# tied at the k-th largest value only some are kept
import torch


def filter_logits(logits: torch.Tensor, temperature: float, top_k: int | None = None) -> torch.Tensor:
    scaled = logits / temperature
    vocab = scaled.shape[-1]
    if top_k is None or top_k >= vocab:
        return scaled
    values, indices = torch.topk(scaled, top_k, dim=-1)
    out = torch.full_like(scaled, float("-inf"))
    return out.scatter(-1, indices, values)


def sample(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
           generator: torch.Generator | None = None) -> torch.Tensor:
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    probs = torch.softmax(filter_logits(logits, temperature, top_k), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)
