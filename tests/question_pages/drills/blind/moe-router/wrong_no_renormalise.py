# wrong: weights are the selected probabilities of the full softmax, not renormalised over the k
# selected experts, so they do not sum to 1 (and are not 1.0 for k = 1)
import torch


def route(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    num_tokens, num_experts = logits.shape
    probs = torch.softmax(logits, dim=-1)
    weights, experts = torch.topk(probs, k, dim=-1)
    counts = torch.bincount(experts.reshape(-1), minlength=num_experts)
    f = counts.to(logits.dtype) / (num_tokens * k)
    aux_loss = num_experts * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
