# wrong: at the first rejection the replacement token is drawn from p_target[i] itself instead of the
# residual max(0, p_target[i] - p_draft[i]), so tokens the draft over-proposes come out too often
import torch


def speculative_step(p_draft: torch.Tensor, p_target: torch.Tensor, draft_tokens: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    K = p_draft.shape[0]
    out = []
    for i in range(K):
        x = int(draft_tokens[i])
        ratio = float(p_target[i, x]) / float(p_draft[i, x])
        u = float(torch.rand((), generator=generator, dtype=torch.float64))
        if u < min(1.0, ratio):
            out.append(x)
            continue
        out.append(int(torch.multinomial(p_target[i].double(), 1, generator=generator)))
        return torch.tensor(out, dtype=torch.int64)
    out.append(int(torch.multinomial(p_target[K].double(), 1, generator=generator)))
    return torch.tensor(out, dtype=torch.int64)
