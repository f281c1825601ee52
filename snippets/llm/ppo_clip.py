import torch

torch.manual_seed(0)
eps = 0.2
# five tokens: the new policy's log-probs, and the log-probs the rollout was sampled with
new_logp = torch.log(torch.tensor([1.5, 1.5, 0.5, 0.5, 1.1]) * 0.3).requires_grad_()
old_logp = torch.log(torch.full((5,), 0.3))       # from the rollout, computed without grad
advantage = torch.tensor([1.0, -1.0, -1.0, 1.0, 1.0])

ratio = torch.exp(new_logp - old_logp.detach())   # pi_new / pi_old per token
unclipped = ratio * advantage
clipped = torch.clamp(ratio, 1 - eps, 1 + eps) * advantage
loss = -torch.min(unclipped, clipped).mean()      # PPO's clipped surrogate, negated to minimise
loss.backward()

print("ratio  advantage  min picks   d loss / d new_logp")
for r, a, u, c, g in zip(ratio.tolist(), advantage.tolist(), unclipped.tolist(), clipped.tolist(),
                         new_logp.grad.tolist()):
    picks = "clipped" if c < u else "unclipped" if u < c else "equal"
    print(f"{r:5.2f}  {a:+9.1f}  {picks:<9}   {g:+.3f}")



# one update per rollout: old_logp is the same forward's log-probs, so the ratio is 1
def on_policy_grad(detach):
    logp = new_logp.detach().clone().requires_grad_()
    old = logp.detach() if detach else logp       # forgetting .detach() makes old_logp a variable
    r = torch.exp(logp - old)
    (-torch.min(r * advantage, torch.clamp(r, 1 - eps, 1 + eps) * advantage).mean()).backward()
    return [round(x, 2) for x in r.tolist()], [round(g, 2) for g in logp.grad.tolist()]


print("old_logp = logp.detach(): ratio %s grad %s" % on_policy_grad(True))
print("old_logp = logp         : ratio %s grad %s" % on_policy_grad(False))
