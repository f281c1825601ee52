import torch
import torch.nn.functional as F


def sequence_logps(logits, labels, mask):
    logp = torch.log_softmax(logits, dim=-1)  # logits minus logsumexp: finite for any logits
    safe = torch.where(mask, labels, torch.zeros_like(labels))  # -100 at padding is no index
    picked = logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)  # (B, T)
    return (picked * mask).sum(dim=-1)  # a sum over the response's tokens, padding times 0


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             beta=0.1):
    ref_chosen, ref_rejected = ref_chosen_logps.detach(), ref_rejected_logps.detach()
    chosen_ratio = policy_chosen_logps - ref_chosen  # log pi(y_w|x) / pi_ref(y_w|x)
    rejected_ratio = policy_rejected_logps - ref_rejected
    # logsigmoid(x) = -softplus(-x), computed without forming sigmoid(x), which is 0 for x << 0.
    loss = -F.logsigmoid(beta * (chosen_ratio - rejected_ratio)).mean()
    return loss, (beta * chosen_ratio).detach(), (beta * rejected_ratio).detach()
