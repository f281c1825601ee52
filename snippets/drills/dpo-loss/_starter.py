import torch


def sequence_logps(logits: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The summed log-probability of each response under a model, over the positions that count.

    logits: (B, T, V), float32 or float64: the model's logits, B >= 1, T >= 1, V >= 2.
    labels: (B, T) int64, ALREADY ALIGNED with logits: labels[b, t] is the token whose
        log-probability is read from logits[b, t]. Do not shift anything inside this function.
    mask: (B, T) bool: True where the position counts (the response's tokens), False elsewhere
        (prompt and padding). Where mask is False, labels may hold any int64, -100 included, so
        they must not be used as indices there. A row with no True position sums to 0.
    Returns (B,) in logits' dtype:
        out[b] = sum over t with mask[b, t] of log_softmax(logits[b, t])[labels[b, t]]
    a sum (not a mean) of log-probabilities (not probabilities), finite for logits as large as
    1e3 in magnitude (a probability that rounds to 0 must not become log(0) = -inf), and
    differentiable with respect to logits.
    """
    raise NotImplementedError("write sequence_logps here")


def dpo_loss(policy_chosen_logps: torch.Tensor, policy_rejected_logps: torch.Tensor,
             ref_chosen_logps: torch.Tensor, ref_rejected_logps: torch.Tensor,
             beta: float = 0.1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The DPO loss (Direct Preference Optimization) of a batch of B preference pairs.

    Each input is (B,), float32 or float64, B >= 1: the summed log-probability of a response
    (as sequence_logps returns) under the policy being trained or under the frozen reference
    model, for the chosen (preferred) and the rejected response of each pair.
    beta: a float > 0, the strength of the implicit KL penalty.

    With, for each pair,
        margin = (policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps)
    returns (loss, chosen_rewards, rejected_rewards):
        loss = mean over the B pairs of -logsigmoid(beta * margin): a 0-dim tensor in the inputs'
            dtype. It must be finite, with finite gradients, for any margin: beta * margin = -1000
            gives a loss of 1000 (so compute log(sigmoid(x)) in a form that cannot underflow to
            log(0)), and beta * margin = +1000 gives 0.
        chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps), (B,), detached (no
            grad_fn, for logging);
        rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps), (B,), detached.
    The loss is differentiable with respect to the two policy inputs. The two reference inputs are
    constants: the loss sends them no gradient, even when they are given with requires_grad=True.
    """
    raise NotImplementedError("write dpo_loss here")
