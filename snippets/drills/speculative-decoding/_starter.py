import torch


def speculative_step(p_draft: torch.Tensor, p_target: torch.Tensor, draft_tokens: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    """The accept/reject step of speculative sampling, for one sequence.

    A small draft model proposed K tokens, draft_tokens[i] drawn from p_draft[i]; the target model
    then scored all K positions plus one more in a single forward pass.
    p_draft: (K, V), K >= 1, the draft model's next-token probabilities at each drafted position.
    p_target: (K + 1, V), the target model's probabilities at the same positions and one after.
        Both are float32 or float64, non-negative, each row summing to 1; p_target may hold zeros.
    draft_tokens: (K,) int64, with p_draft[i, draft_tokens[i]] > 0.
    The rule, position by position from i = 0:
      - accept x = draft_tokens[i] with probability min(1, p_target[i, x] / p_draft[i, x]): always
        when p_target[i, x] >= p_draft[i, x], never when p_target[i, x] == 0;
      - at the first rejection, draw one token from the residual max(0, p_target[i] - p_draft[i]),
        normalised to sum to 1, append it and stop: no later position is looked at;
      - if all K are accepted, draw a bonus token from p_target[K] and append it.
    Then every token emitted at position i, given that the tokens before it were accepted, is
    distributed as p_target[i]: the output is a sample of the target model.
    All randomness comes from `generator` (torch.rand, torch.multinomial, ... with
    generator=generator), in any order you like: the same seed gives the same output whatever
    torch's global seed is; generator=None uses torch's global generator. The inputs are not
    modified.
    Returns a 1-D torch.int64 tensor of length n, 1 <= n <= K + 1: the n - 1 accepted draft tokens
    (draft_tokens[:n - 1]), then the residual token or the bonus token.
    """
    raise NotImplementedError("write speculative_step here")
