import math

import torch

torch.manual_seed(0)
tokens, d_model, n_experts, k = 8, 6, 4, 2
x = torch.randn(tokens, d_model)
router = torch.nn.Linear(d_model, n_experts, bias=False)
experts = torch.nn.ModuleList(torch.nn.Linear(d_model, d_model) for _ in range(n_experts))

# 1. top-k routing: softmax over experts, keep the k largest, renormalise to sum 1
probs = router(x).softmax(dim=-1)                  # (tokens, n_experts)
top_p, top_e = probs.topk(k, dim=-1)               # k largest, in descending order
weights = top_p / top_p.sum(dim=-1, keepdim=True)  # renormalised over the k chosen
for t in range(3):
    print(f"token {t}: probs {[round(p, 3) for p in probs[t].tolist()]}"
          f" -> experts {top_e[t].tolist()} weights {[round(w, 3) for w in weights[t].tolist()]}")
print("kept probability mass per token:", [round(s, 2) for s in top_p.sum(-1).tolist()])

# the layer's output: each token's weighted sum of its k experts' outputs
y = torch.zeros_like(x)
for e in range(n_experts):
    tok, slot = (top_e == e).nonzero(as_tuple=True)  # which tokens chose expert e
    y[tok] += weights[tok, slot, None] * experts[e](x[tok])
dense = sum(weights[:, s, None] * torch.stack([experts[e](x[t]) for t, e in enumerate(top_e[:, s].tolist())])
            for s in range(k))
print("dispatch loop equals per-token weighted sum:", torch.allclose(y, dense, atol=1e-6))

# 2. capacity: each expert takes at most capacity tokens; the rest are dropped
def dispatch(top1, capacity_factor):
    capacity = math.ceil(capacity_factor * len(top1) / n_experts)
    counts = torch.bincount(top1, minlength=n_experts)
    kept = counts.clamp(max=capacity)
    return capacity, counts.tolist(), kept.tolist(), int((counts - kept).sum())

skewed = torch.tensor([0] * 10 + [1] * 4 + [2] * 1 + [3] * 1)  # 16 tokens, top-1, expert 0 is popular
for cf in (1.0, 1.25, 2.0):
    cap, counts, kept, dropped = dispatch(skewed, cf)
    print(f"capacity_factor {cf}: capacity {cap}, routed {counts}, kept {kept}, dropped {dropped} of 16")
