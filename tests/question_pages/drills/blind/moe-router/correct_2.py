import torch


def route(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Top-k routing of T tokens to E experts, with the Switch Transformer load-balancing loss
    generalised to top-k."""
    num_tokens, num_experts = logits.shape
    # the softmax written out, shifted by each row's max so the largest exponent is exp(0) = 1
    shifted = logits - logits.max(dim=-1, keepdim=True).values
    exps = torch.exp(shifted)
    probs = exps / exps.sum(dim=-1, keepdim=True)

    # the softmax is monotone, so the top-k of the logits are the top-k of the probabilities
    _, experts = logits.detach().topk(k, dim=-1, largest=True, sorted=True)
    experts = experts.to(torch.int64)
    # renormalised probabilities = a softmax over the k selected logits (again max-shifted)
    sel = logits.gather(-1, experts)
    sel_exps = torch.exp(sel - sel[:, :1])
    weights = sel_exps / sel_exps.sum(dim=-1, keepdim=True)

    counts = [0] * num_experts
    for row in experts.tolist():
        for e in row:
            counts[e] += 1
    f = torch.tensor(counts, dtype=logits.dtype, device=logits.device) / (num_tokens * k)
    p_mean = probs.sum(dim=0) / num_tokens
    aux_loss = (f * p_mean).sum() * num_experts
    return weights, experts, aux_loss
