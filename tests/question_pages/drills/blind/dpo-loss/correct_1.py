import torch
import torch.nn.functional as F


def sequence_logps(logits: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The summed log-probability of each response under a model, over the positions that count."""
    logp = torch.log_softmax(logits, dim=-1)  # log-sum-exp form: finite for logits of 1e3
    safe_labels = torch.where(mask, labels, torch.zeros_like(labels))  # no -100 used as an index
    picked = logp.gather(-1, safe_labels.unsqueeze(-1)).squeeze(-1)  # (B, T)
    picked = torch.where(mask, picked, torch.zeros_like(picked))
    return picked.sum(dim=-1)


def dpo_loss(policy_chosen_logps: torch.Tensor, policy_rejected_logps: torch.Tensor,
             ref_chosen_logps: torch.Tensor, ref_rejected_logps: torch.Tensor,
             beta: float = 0.1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The DPO loss (Direct Preference Optimization) of a batch of B preference pairs."""
    ref_chosen = ref_chosen_logps.detach()
    ref_rejected = ref_rejected_logps.detach()
    chosen_logratio = policy_chosen_logps - ref_chosen
    rejected_logratio = policy_rejected_logps - ref_rejected
    margin = chosen_logratio - rejected_logratio
    loss = -F.logsigmoid(beta * margin).mean()
    chosen_rewards = (beta * chosen_logratio).detach()
    rejected_rewards = (beta * rejected_logratio).detach()
    return loss, chosen_rewards, rejected_rewards
