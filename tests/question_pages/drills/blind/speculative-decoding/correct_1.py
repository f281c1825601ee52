import torch


def speculative_step(p_draft: torch.Tensor, p_target: torch.Tensor, draft_tokens: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    K = p_draft.shape[0]
    out = []
    for i in range(K):
        x = int(draft_tokens[i])
        pt = float(p_target[i, x])
        pd = float(p_draft[i, x])
        u = float(torch.rand((), generator=generator, dtype=torch.float64))
        if u * pd < pt:
            out.append(x)
            continue
        residual = (p_target[i].double() - p_draft[i].double()).clamp_min(0)
        if float(residual.sum()) <= 0:
            residual = p_target[i].double()
        tok = int(torch.multinomial(residual / residual.sum(), 1, generator=generator))
        out.append(tok)
        return torch.tensor(out, dtype=torch.int64)
    tok = int(torch.multinomial(p_target[K].double(), 1, generator=generator))
    out.append(tok)
    return torch.tensor(out, dtype=torch.int64)
