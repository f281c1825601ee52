# The follow-ups of moe-router: the aux loss of a skewed routing against a balanced one and where
# its gradient pushes the router, then the capacity of an expert and the assignments a skewed
# routing drops.
import math

import torch

torch.manual_seed(0)
T, E, k = 12, 4, 2


def aux_loss(logits, k):
    probs = torch.softmax(logits, dim=-1)
    experts = probs.topk(k, dim=-1).indices
    f = torch.bincount(experts.reshape(-1), minlength=E).double() / (T * k)
    return experts, E * (f * probs.mean(dim=0)).sum()


# A skewed router: expert 0 is favoured by every token, expert 1 by most.
g = torch.Generator().manual_seed(0)
logits = torch.randn(T, E, generator=g, dtype=torch.float64)
logits[:, 0] += 3.0
logits[:, 1] += 1.0
experts, skewed = aux_loss(logits, k)
counts = torch.bincount(experts.reshape(-1), minlength=E)
print(f"assignments per expert (T * k = {T * k}):", counts.tolist())
print("aux_loss, skewed:", round(skewed.item(), 4),
      "| uniform logits:", round(aux_loss(torch.zeros(T, E, dtype=torch.float64), k)[1].item(), 4))

# The gradient reaches the router only through P (f is a count). Its sum over the tokens, per
# expert: where it is positive, a descent step lowers that expert's logits.
leaf = logits.clone().requires_grad_()
(grad,) = torch.autograd.grad(aux_loss(leaf, k)[1], leaf)
print("f per expert:", [round(v, 3) for v in (counts / (T * k)).tolist()],
      "| gradient of aux_loss summed over tokens:", [round(v, 4) for v in grad.sum(dim=0).tolist()])

# Capacity C = ceil(capacity_factor * T * k / E) slots per expert. Assignments are served in
# token order, the first choices of all tokens before any second choice (Switch-style
# priority); an assignment past its expert's C-th slot is dropped, and the token goes on
# through the residual connection without that expert.
order = experts.t().reshape(-1)  # slot 0 of every token, then slot 1
one_hot = torch.nn.functional.one_hot(order, E)
position = (one_hot.cumsum(dim=0) * one_hot).sum(dim=1) - 1  # place in its expert's queue
for cf in (1.0, 1.25, 2.0):
    C = math.ceil(cf * T * k / E)
    kept = (position < C).reshape(k, T).t()  # (T, k): is each assignment served?
    dropped = (~kept).sum().item()
    print(f"capacity_factor {cf}: C = {C}, kept per expert "
          f"{torch.clamp(counts, max=C).tolist()}, dropped {dropped} of {T * k} assignments "
          f"(by hand: sum of max(0, count - C) = {sum(max(0, c - C) for c in counts.tolist())}),"
          f" tokens with no expert at all: {int((~kept).all(dim=1).sum())}")
