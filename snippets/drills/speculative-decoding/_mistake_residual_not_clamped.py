# mistake: the residual p_target[i] - p_draft[i] is not clamped at 0: it has negative entries,
# and torch.multinomial refuses them
# fails: first_token
import torch


def speculative_step(p_draft, p_target, draft_tokens, generator=None):
    k = draft_tokens.shape[0]
    out = []
    for i in range(k):
        x = int(draft_tokens[i])
        u = float(torch.rand((), generator=generator, dtype=torch.float64))
        if u * float(p_draft[i, x]) < float(p_target[i, x]):  # u < p_target / p_draft, no division
            out.append(x)  # accepted; always when the target gives x at least the draft's probability
            continue
        residual = p_target[i] - p_draft[i]
        out.append(int(torch.multinomial(residual, 1, generator=generator)))  # multinomial normalises
        return torch.tensor(out, dtype=torch.int64)  # stop at the first rejection
    out.append(int(torch.multinomial(p_target[k], 1, generator=generator)))  # every draft accepted: bonus
    return torch.tensor(out, dtype=torch.int64)
