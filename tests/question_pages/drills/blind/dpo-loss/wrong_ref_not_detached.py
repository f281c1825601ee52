# wrong: the reference log-probs are not detached, so when they are given with requires_grad=True the
# loss sends them a gradient (the negative of the policy's)
import torch
import torch.nn.functional as F


def sequence_logps(logits: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    logp = torch.log_softmax(logits, dim=-1)
    safe_labels = torch.where(mask, labels, torch.zeros_like(labels))
    picked = logp.gather(-1, safe_labels.unsqueeze(-1)).squeeze(-1)
    return torch.where(mask, picked, torch.zeros_like(picked)).sum(dim=-1)


def dpo_loss(policy_chosen_logps: torch.Tensor, policy_rejected_logps: torch.Tensor,
             ref_chosen_logps: torch.Tensor, ref_rejected_logps: torch.Tensor,
             beta: float = 0.1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    chosen_logratio = policy_chosen_logps - ref_chosen_logps
    rejected_logratio = policy_rejected_logps - ref_rejected_logps
    margin = chosen_logratio - rejected_logratio
    loss = -F.logsigmoid(beta * margin).mean()
    return loss, (beta * chosen_logratio).detach(), (beta * rejected_logratio).detach()
