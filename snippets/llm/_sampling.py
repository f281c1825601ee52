"""Logits processors and a sampler, used by the decoding snippets."""
import torch


def apply_temperature(logits, t):
    return logits / t


def apply_top_k(logits, k):
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def apply_top_p(logits, p):
    """Keep the smallest set of most likely tokens whose probability reaches p."""
    sorted_logits, idx = torch.sort(logits, dim=-1, descending=True)
    probs = sorted_logits.softmax(-1)
    before = probs.cumsum(-1) - probs          # mass of the tokens ranked above each one
    drop_sorted = before >= p                  # already reached p without this token
    drop = drop_sorted.scatter(-1, idx, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))


def repetition_penalty(logits, seen, penalty):
    """A common convention: divide a seen token's positive logit, multiply a negative one."""
    picked = logits.gather(-1, seen)
    picked = torch.where(picked > 0, picked / penalty, picked * penalty)
    return logits.scatter(-1, seen, picked)


def sample(logits, generator):
    return torch.multinomial(logits.softmax(-1), 1, generator=generator).squeeze(-1)
