import torch

torch.manual_seed(0)
# 3 prompts, a group of 4 sampled completions each, one scalar reward per completion
rewards = torch.tensor([[1.0, 0.0, 0.0, 1.0],
                        [0.2, 0.9, 0.4, 0.5],
                        [1.0, 1.0, 1.0, 1.0]])
mean = rewards.mean(dim=1, keepdim=True)
std = rewards.std(dim=1, keepdim=True)             # unbiased (correction=1) by default
adv = (rewards - mean) / (std + 1e-4)              # group-normalised: no value network
torch.set_printoptions(precision=3)
print("advantages:\n", adv)
print("sum per group:", [round(s, 4) for s in adv.sum(dim=1).tolist()])
print("std per group:", [round(s, 3) for s in std.squeeze(1).tolist()], "(population std of group 0:",
      round(rewards[0].std(correction=0).item(), 3), ")")

# each completion's advantage is shared by all of its tokens in the clipped objective
lengths = [3, 5, 2, 4]                             # tokens per completion of prompt 1
per_token = torch.cat([adv[1, i].repeat(n) for i, n in enumerate(lengths)])
print("prompt 1, per-token advantages:", [round(a, 3) for a in per_token.tolist()])

# the KL penalty to the reference model, k3 estimator, per token: >= 0, zero when equal
logp = torch.log(torch.tensor([0.5, 0.2, 0.9]))
ref_logp = torch.log(torch.tensor([0.5, 0.4, 0.3]))
kl = torch.exp(ref_logp - logp) - (ref_logp - logp) - 1
print("k3 KL per token:", [round(k, 4) for k in kl.tolist()])
