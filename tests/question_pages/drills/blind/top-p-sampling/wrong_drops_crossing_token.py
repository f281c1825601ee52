# wrong: keeps the tokens whose cumulative sum (their own included) is below p, so the token
# whose probability makes the sum reach p is dropped
import torch


def top_p_filter(logits: torch.Tensor, p: float) -> torch.Tensor:
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cumulative = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)
    keep_sorted = cumulative < p
    keep_sorted[..., 0] = True
    if p >= 1.0:
        keep_sorted[:] = True
    keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
    return logits.masked_fill(~keep, float("-inf"))
