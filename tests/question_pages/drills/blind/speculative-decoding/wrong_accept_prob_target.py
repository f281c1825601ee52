# wrong: accepts draft token x with probability p_target[i, x] instead of min(1, p_target / p_draft),
# rejecting too often, so the draft's tokens are under-represented in the output
import torch


def speculative_step(p_draft: torch.Tensor, p_target: torch.Tensor, draft_tokens: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    K = p_draft.shape[0]
    out = []
    for i in range(K):
        x = int(draft_tokens[i])
        u = float(torch.rand((), generator=generator, dtype=torch.float64))
        if u < float(p_target[i, x]):
            out.append(x)
            continue
        residual = (p_target[i].double() - p_draft[i].double()).clamp_min(0)
        if float(residual.sum()) <= 0:
            residual = p_target[i].double()
        out.append(int(torch.multinomial(residual, 1, generator=generator)))
        return torch.tensor(out, dtype=torch.int64)
    out.append(int(torch.multinomial(p_target[K].double(), 1, generator=generator)))
    return torch.tensor(out, dtype=torch.int64)
