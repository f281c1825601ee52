# wrong: softmax written as exp(logits) / sum(exp(logits)) with no max subtracted: exp(1e4) is inf,
# so logits of 1e4 give inf / inf = NaN in probs, weights and aux_loss
import torch


def route(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    num_tokens, num_experts = logits.shape
    exps = torch.exp(logits)
    probs = exps / exps.sum(dim=-1, keepdim=True)
    top_probs, experts = torch.topk(probs, k, dim=-1)
    weights = top_probs / top_probs.sum(dim=-1, keepdim=True)
    counts = torch.bincount(experts.reshape(-1), minlength=num_experts)
    f = counts.to(logits.dtype) / (num_tokens * k)
    aux_loss = num_experts * (f * probs.mean(dim=0)).sum()
    return weights, experts, aux_loss
