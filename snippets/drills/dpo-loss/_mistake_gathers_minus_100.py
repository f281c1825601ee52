# mistake: the masked positions are zeroed, but the gather uses the labels as given, so a label of
# -100 at a padding position is an index out of range
# fails: ignore_index_labels
import torch
import torch.nn.functional as F


def sequence_logps(logits, labels, mask):
    logp = torch.log_softmax(logits, dim=-1)
    return (logp.gather(-1, labels.unsqueeze(-1)).squeeze(-1) * mask).sum(dim=-1)


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             beta=0.1):
    chosen = policy_chosen_logps - ref_chosen_logps.detach()
    rejected = policy_rejected_logps - ref_rejected_logps.detach()
    loss = -F.logsigmoid(beta * (chosen - rejected)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
