# mistake: sequence_logps sums the probabilities (softmax) at the labels instead of the
# log-probabilities
# fails: sequence_logps_values
import torch
import torch.nn.functional as F


def sequence_logps(logits, labels, mask):
    probs = torch.softmax(logits, dim=-1)
    safe = torch.where(mask, labels, torch.zeros_like(labels))
    return (probs.gather(-1, safe.unsqueeze(-1)).squeeze(-1) * mask).sum(dim=-1)


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             beta=0.1):
    chosen = policy_chosen_logps - ref_chosen_logps.detach()
    rejected = policy_rejected_logps - ref_rejected_logps.detach()
    loss = -F.logsigmoid(beta * (chosen - rejected)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
