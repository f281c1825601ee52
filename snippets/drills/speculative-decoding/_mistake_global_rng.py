# mistake: ignores the generator argument: torch.rand and torch.multinomial draw from the global
# generator, so the same seed gives different outputs under a different global seed
# fails: generator
import torch


def speculative_step(p_draft, p_target, draft_tokens, generator=None):
    k = draft_tokens.shape[0]
    out = []
    for i in range(k):
        x = int(draft_tokens[i])
        u = float(torch.rand((), generator=None, dtype=torch.float64))
        if u * float(p_draft[i, x]) < float(p_target[i, x]):  # u < p_target / p_draft, no division
            out.append(x)  # accepted; always when the target gives x at least the draft's probability
            continue
        residual = (p_target[i] - p_draft[i]).clamp(min=0)  # the mass the draft under-proposes
        out.append(int(torch.multinomial(residual, 1, generator=None)))  # multinomial normalises
        return torch.tensor(out, dtype=torch.int64)  # stop at the first rejection
    out.append(int(torch.multinomial(p_target[k], 1, generator=None)))  # every draft accepted: bonus
    return torch.tensor(out, dtype=torch.int64)
