# wrong: f counts the assignments but divides by T instead of T * k, so f sums to k and aux_loss is
# k times too large for k > 1 (uniform logits give k, not 1.0)
import torch


def route(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    num_tokens, num_experts = logits.shape
    probs = torch.softmax(logits, dim=-1)
    top_probs, experts = torch.topk(probs, k, dim=-1)
    weights = top_probs / top_probs.sum(dim=-1, keepdim=True)
    counts = torch.bincount(experts.reshape(-1), minlength=num_experts)
    f = counts.to(logits.dtype) / num_tokens
    aux_loss = num_experts * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
