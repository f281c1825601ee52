import torch


def filter_logits(logits: torch.Tensor, temperature: float, top_k: int | None = None) -> torch.Tensor:
    """Scaled logits; the threshold is the k-th entry of each row sorted in descending order,
    and torch.where keeps every token at or above it (ties at the k-th value included)."""
    scaled = torch.div(logits, temperature)
    vocab = scaled.shape[-1]
    if top_k is None or top_k >= vocab:
        return scaled.clone()
    sorted_desc, _ = torch.sort(scaled, dim=-1, descending=True)
    threshold = sorted_desc[:, top_k - 1].unsqueeze(-1)
    neg_inf = torch.full_like(scaled, float("-inf"))
    return torch.where(scaled >= threshold, scaled, neg_inf)


def sample(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
           generator: torch.Generator | None = None) -> torch.Tensor:
    """Greedy: the first index of the row maximum, found by comparison. Otherwise the Gumbel-max
    trick in float64: argmax of filtered logits + Gumbel noise, which draws each row's token with
    the softmax's probabilities; the uniforms come from `generator` (global when None)."""
    if temperature == 0:
        vocab = logits.shape[-1]
        is_max = logits == logits.amax(dim=-1, keepdim=True)
        positions = torch.arange(vocab, device=logits.device).expand_as(logits)
        return torch.where(is_max, positions, vocab).amin(dim=-1).to(torch.int64)
    filtered = filter_logits(logits, temperature, top_k).to(torch.float64)
    u = torch.rand(filtered.shape, dtype=torch.float64, device=filtered.device, generator=generator)
    tiny = torch.finfo(torch.float64).tiny
    gumbel = -torch.log(-torch.log(u.clamp(min=tiny)))
    return torch.argmax(filtered + gumbel, dim=-1).to(torch.int64)
