import torch


def filter_logits(logits: torch.Tensor, temperature: float, top_k: int | None = None) -> torch.Tensor:
    """The logits a sampler draws from: divided by the temperature, then cut to the top k.

    logits: (B, V), float32 or float64, finite, in vocabulary order.
    temperature: a float > 0 (the judge never calls filter_logits with 0).
    top_k: None (keep every token) or an int >= 1. Keep each token whose scaled logit is at
        least the k-th largest scaled logit of its row: without ties that is exactly k tokens;
        where tokens tie at the k-th largest value, every tied token is kept (so more than k).
        top_k >= V keeps every token.
    Returns a new (B, V) tensor in logits' dtype: logits / temperature where kept, -inf elsewhere.
    `logits` itself is not modified.
    """
    raise NotImplementedError("write filter_logits here")


def sample(logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None,
           generator: torch.Generator | None = None) -> torch.Tensor:
    """Draw one next token per row.

    logits, top_k: as in filter_logits; temperature: a float >= 0.
    temperature == 0 is greedy: the index of each row's largest logit, the lowest index where
    several tie (as torch.argmax); top_k does not change it; no random number is needed.
    temperature > 0: each row's token is drawn independently of the other rows from
    softmax(filter_logits(logits, temperature, top_k)) over V, so a token outside the kept set
    is never drawn. All randomness comes from `generator` (for example
    torch.multinomial(probs, 1, generator=generator)): the same seed gives the same tokens,
    whatever torch's global seed is; generator=None uses torch's global generator.
    Logits as large as 1e4 in magnitude must give no NaN and no error.
    Returns a (B,) int64 tensor of token indices in [0, V). `logits` itself is not modified.
    """
    raise NotImplementedError("write sample here")
