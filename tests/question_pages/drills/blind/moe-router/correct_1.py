import torch


def route(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Top-k routing of T tokens to E experts, with the Switch Transformer load-balancing loss
    generalised to top-k."""
    num_tokens, num_experts = logits.shape
    probs = torch.softmax(logits, dim=-1)  # subtracts the row max: no overflow at 1e4
    top_probs, experts = torch.topk(probs, k, dim=-1)
    weights = top_probs / top_probs.sum(dim=-1, keepdim=True)

    counts = torch.bincount(experts.reshape(-1), minlength=num_experts)
    f = counts.to(logits.dtype) / (num_tokens * k)  # a count: no gradient
    p_mean = probs.mean(dim=0)
    aux_loss = num_experts * (f * p_mean).sum()
    return weights, experts, aux_loss
