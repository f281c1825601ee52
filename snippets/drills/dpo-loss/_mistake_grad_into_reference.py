# mistake: the reference log-probs are not detached, so a reference given with requires_grad=True
# (computed without torch.no_grad) gets the opposite of the policy's gradient
# fails: reference_constant
import torch
import torch.nn.functional as F


def sequence_logps(logits, labels, mask):
    logp = torch.log_softmax(logits, dim=-1)
    safe = torch.where(mask, labels, torch.zeros_like(labels))
    return (logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1) * mask).sum(dim=-1)


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             beta=0.1):
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    loss = -F.logsigmoid(beta * (chosen - rejected)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
