import torch
import torch.nn.functional as F


def sequence_logps(logits: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The summed log-probability of each response under a model, over the positions that count."""
    b, t, v = logits.shape
    # cross entropy is -log_softmax at the label; ignore_index gives exactly 0 where mask is False
    targets = labels.masked_fill(~mask, -100)
    nll = F.cross_entropy(logits.reshape(b * t, v), targets.reshape(b * t), ignore_index=-100,
                          reduction="none")
    return -nll.reshape(b, t).sum(dim=1)


def dpo_loss(policy_chosen_logps: torch.Tensor, policy_rejected_logps: torch.Tensor,
             ref_chosen_logps: torch.Tensor, ref_rejected_logps: torch.Tensor,
             beta: float = 0.1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The DPO loss (Direct Preference Optimization) of a batch of B preference pairs."""
    with torch.no_grad():
        chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
        rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
        ref_logratio = ref_chosen_logps - ref_rejected_logps
    # the same margin, grouped as the policy's chosen-minus-rejected minus the reference's
    x = beta * ((policy_chosen_logps - policy_rejected_logps) - ref_logratio)
    # -log(sigmoid(x)) = log(1 + exp(-x)) = log(exp(0) + exp(-x)): logaddexp never forms log(0)
    loss = torch.logaddexp(torch.zeros_like(x), -x).sum() / x.numel()
    return loss, chosen_rewards, rejected_rewards
