# mistake: the rewards are returned attached to the graph (no .detach()): logging them keeps the
# policy's graph alive, and a sum that includes them would train through them
# fails: rewards
import torch
import torch.nn.functional as F


def sequence_logps(logits, labels, mask):
    logp = torch.log_softmax(logits, dim=-1)
    safe = torch.where(mask, labels, torch.zeros_like(labels))
    return (logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1) * mask).sum(dim=-1)


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             beta=0.1):
    chosen = policy_chosen_logps - ref_chosen_logps.detach()
    rejected = policy_rejected_logps - ref_rejected_logps.detach()
    loss = -F.logsigmoid(beta * (chosen - rejected)).mean()
    return loss, beta * chosen, beta * rejected
