import torch


def _sample_inverse_cdf(weights: torch.Tensor, u: torch.Tensor) -> int:
    """One draw from the (unnormalised, non-negative) weights, by inverting the cumulative sum."""
    cdf = torch.cumsum(weights, dim=0)
    target = u * cdf[-1]
    idx = int(torch.searchsorted(cdf, target.reshape(1), right=True)[0])
    idx = min(idx, weights.numel() - 1)
    while weights[idx] <= 0 and idx > 0:  # rounding landed on a zero-weight entry at the end
        idx -= 1
    return idx


def speculative_step(p_draft: torch.Tensor, p_target: torch.Tensor, draft_tokens: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    K = p_draft.shape[0]
    pd = p_draft.double()
    pt = p_target.double()
    tokens = draft_tokens.to(torch.int64)
    # all random numbers drawn up front: K for the accept tests, one for the final token
    u = torch.rand(K + 1, generator=generator, dtype=torch.float64)
    rows = torch.arange(K)
    q_x = pt[rows, tokens]
    p_x = pd[rows, tokens]
    accepted = u[:K] * p_x < q_x
    rejected = (~accepted).nonzero()
    if rejected.numel() == 0:
        n_acc = K
        last = _sample_inverse_cdf(pt[K], u[K])
    else:
        n_acc = int(rejected[0, 0])
        residual = (pt[n_acc] - pd[n_acc]).clamp(min=0)
        if float(residual.sum()) <= 0:
            residual = pt[n_acc]
        last = _sample_inverse_cdf(residual, u[K])
    return torch.cat([tokens[:n_acc].clone(), torch.tensor([last], dtype=torch.int64)])
