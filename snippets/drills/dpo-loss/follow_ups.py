# The follow-ups of dpo-loss: what the reference model does in the loss, and which log-probs are
# detached in the clipped policy-gradient objective of PPO and GRPO.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def dpo(pc, pr, rc, rr, beta):
    return -F.logsigmoid(beta * ((pc - rc.detach()) - (pr - rr.detach()))).mean()


# 1. At the start of training the policy is the reference: every log-ratio is 0, and the loss is
# log 2 for any beta.
lp = torch.tensor([-42.0, -17.5, -88.25], dtype=torch.float64)
for beta in (0.1, 0.5):
    print(f"policy == reference, beta {beta}: loss {dpo(lp, lp - 3.0, lp, lp - 3.0, beta).item():.4f}"
          f" (log 2 = {math.log(2):.4f})")

# 2. Only the log-ratios against the reference count: adding the same number to a response's
# policy and reference log-probs leaves the loss unchanged, while the raw policy log-probs alone
# (a reference of zeros) give another loss.
g = torch.Generator().manual_seed(0)
pc, pr, rc, rr = (-torch.rand(4, generator=g, dtype=torch.float64) * 50 for _ in range(4))
base = dpo(pc, pr, rc, rr, 0.1)
print("shifted by 7 (policy and reference, chosen):", torch.allclose(base, dpo(pc + 7, pr, rc + 7, rr, 0.1)),
      "| without the reference:", round(dpo(pc, pr, torch.zeros(4), torch.zeros(4), 0.1).item(), 4),
      "vs", round(base.item(), 4))

# 3. The gradient of one pair's loss with respect to the policy's chosen log-prob is
# -beta * sigmoid(-beta * margin): a pair the policy already ranks far above the reference's
# ranking gets almost nothing, so the policy is not pushed ever further from the reference.
margins = torch.tensor([-20.0, 0.0, 20.0, 60.0], dtype=torch.float64)
pc = torch.zeros(4, dtype=torch.float64, requires_grad=True)
loss = -F.logsigmoid(0.1 * (pc + margins)).sum()  # each pair's margin is pc + m, at pc = 0
(grad,) = torch.autograd.grad(loss, pc)
print("margin:", margins.tolist(), "| d loss / d policy_chosen_logps:",
      [round(v, 4) for v in grad.tolist()], "| -beta * sigmoid(-beta * margin):",
      [round(v, 4) for v in (-0.1 * torch.sigmoid(-0.1 * margins)).tolist()])

# 4. The clipped objective of PPO (GRPO uses the same one per token):
#   ratio = exp(logp - logp_old),  objective = min(ratio * A, clamp(ratio, 1 - eps, 1 + eps) * A)
# logp (the policy being trained) carries the gradient; logp_old (the policy that sampled the
# tokens, computed under no_grad) and the advantages A are constants.
eps = 0.2
logp = torch.log(torch.tensor([0.30, 0.30, 0.10, 0.10, 0.30, 0.22], dtype=torch.float64)).requires_grad_()
with torch.no_grad():
    logp_old = torch.log(torch.tensor([0.30, 0.20, 0.20, 0.20, 0.20, 0.20], dtype=torch.float64))
A = torch.tensor([1.0, 1.0, 1.0, -1.0, -1.0, -1.0], dtype=torch.float64)
ratio = torch.exp(logp - logp_old)
objective = torch.minimum(ratio * A, torch.clamp(ratio, 1 - eps, 1 + eps) * A)
(grad,) = torch.autograd.grad(objective.sum(), logp)
print("ratio:", [round(v, 4) for v in ratio.tolist()], "| advantage:", A.tolist())
print("d objective / d logp:", [round(v, 4) for v in grad.tolist()],
      "| ratio * A where the clip is not active:",
      [round(r * a, 4) if (a > 0 and r <= 1 + eps) or (a < 0 and r >= 1 - eps) else 0.0
       for r, a in zip(ratio.tolist(), A.tolist(), strict=True)])

# The same first step written with one tensor and no detach: exp(logp - logp) is the constant 1,
# so the gradient is zero. On-policy code (one update per batch, as GRPO often runs) writes
# exp(logp - logp.detach()): the value is 1 and the gradient is A, the REINFORCE gradient.
logp_now = torch.log(torch.tensor([0.3, 0.5], dtype=torch.float64)).requires_grad_()
A2 = torch.tensor([1.0, -1.0], dtype=torch.float64)
for name, old in (("logp_old = logp (not detached)", logp_now),
                  ("logp_old = logp.detach()", logp_now.detach())):
    r = torch.exp(logp_now - old)
    obj = torch.minimum(r * A2, torch.clamp(r, 1 - eps, 1 + eps) * A2).sum()
    (g_now,) = torch.autograd.grad(obj, logp_now)
    print(f"{name}: ratio {r.tolist()}, gradient {g_now.tolist()}")

# 5. Aligning labels for a causal LM: the logits at position t predict token t + 1, so the caller
# drops the last position's logits and the first token: logits[:, :-1], ids[:, 1:], mask[:, 1:].
# The sum then equals minus F.cross_entropy's per-token losses summed, with ignore_index=-100 at
# the prompt and padding.
B, T, V = 2, 7, 11
logits = torch.randn(B, T, V, generator=g, dtype=torch.float64)
ids = torch.randint(0, V, (B, T), generator=g)
response = torch.tensor([[0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 1, 0, 0]], dtype=torch.bool)
lg, lab, m = logits[:, :-1], ids[:, 1:], response[:, 1:]
logp = torch.log_softmax(lg, dim=-1).gather(-1, lab.unsqueeze(-1)).squeeze(-1)
summed = (logp * m).sum(dim=-1)
ce = F.cross_entropy(lg.transpose(1, 2), lab.masked_fill(~m, -100), reduction="none")
print("shifted sum of log-probs:", [round(v, 4) for v in summed.tolist()],
      "| -cross_entropy summed over tokens:", [round(v, 4) for v in (-ce.sum(dim=-1)).tolist()])

# 6. log(sigmoid(x)) against F.logsigmoid(x) for very negative x. Below -104 in float32 and -746
# in float64 the true sigmoid is under the smallest subnormal number, so it is 0 however it is
# computed: the log is -inf and its gradient NaN. logsigmoid stays finite.
for dtype, xs in ((torch.float32, (-104.0, -200.0)), (torch.float64, (-746.0, -1000.0))):
    x = torch.tensor(xs, dtype=dtype, requires_grad=True)
    naive = torch.log(torch.sigmoid(x))
    (g_naive,) = torch.autograd.grad(naive.sum(), x)
    stable = F.logsigmoid(x)
    (g_stable,) = torch.autograd.grad(stable.sum(), x)
    print(f"{dtype} x {list(xs)}: sigmoid {torch.sigmoid(x).tolist()}, log(sigmoid) {naive.tolist()}"
          f" with gradient {g_naive.tolist()}; logsigmoid {stable.tolist()} with gradient"
          f" {g_stable.tolist()}")
