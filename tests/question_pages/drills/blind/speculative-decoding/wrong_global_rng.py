# wrong: the accept tests use torch.rand without the generator (torch's global RNG), so the same
# generator seed does not give the same output when the global seed changes
import torch


def speculative_step(p_draft: torch.Tensor, p_target: torch.Tensor, draft_tokens: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    K = p_draft.shape[0]
    out = []
    for i in range(K):
        x = int(draft_tokens[i])
        u = float(torch.rand(()))
        if u * float(p_draft[i, x]) < float(p_target[i, x]):
            out.append(x)
            continue
        residual = (p_target[i].double() - p_draft[i].double()).clamp_min(0)
        if float(residual.sum()) <= 0:
            residual = p_target[i].double()
        out.append(int(torch.multinomial(residual, 1, generator=generator)))
        return torch.tensor(out, dtype=torch.int64)
    out.append(int(torch.multinomial(p_target[K].double(), 1, generator=generator)))
    return torch.tensor(out, dtype=torch.int64)
