# The follow-ups of speculative-decoding, on the pinned torch: why the residual makes the output a
# sample of the target, the accept rate as 1 minus the total variation distance, expected tokens per
# step (by formula and by counting), when it does not pay off, and greedy speculative decoding.
import torch


def speculative_step(p_draft, p_target, draft_tokens, generator=None):  # the drill's reference
    k = draft_tokens.shape[0]
    out = []
    for i in range(k):
        x = int(draft_tokens[i])
        u = float(torch.rand((), generator=generator, dtype=torch.float64))
        if u * float(p_draft[i, x]) < float(p_target[i, x]):
            out.append(x)
            continue
        residual = (p_target[i] - p_draft[i]).clamp(min=0)
        out.append(int(torch.multinomial(residual, 1, generator=generator)))
        return torch.tensor(out, dtype=torch.int64)
    out.append(int(torch.multinomial(p_target[k], 1, generator=generator)))
    return torch.tensor(out, dtype=torch.int64)


def fmt(t):
    return "[" + ", ".join(f"{x:.3f}" for x in t.tolist()) + "]"


# 1. The first token, exactly: accepted drafts give min(p_draft, p_target); a rejection (probability
# 1 - a) gives the residual. With the residual the sum is p_target; resampling p_target is not.
p_draft = torch.tensor([0.10, 0.10, 0.40, 0.20, 0.20], dtype=torch.float64)
p_target = torch.tensor([0.50, 0.25, 0.10, 0.10, 0.05], dtype=torch.float64)
overlap = torch.minimum(p_draft, p_target)
a = float(overlap.sum())
residual = (p_target - p_draft).clamp(min=0)
print("p_target                                  ", fmt(p_target))
print(f"accept rate a = sum min(p_draft, p_target) = {a:.3f};"
      f" 1 - total variation = {1 - 0.5 * float((p_draft - p_target).abs().sum()):.3f}")
print("min + (1 - a) * residual / (1 - a)        ", fmt(overlap + (1 - a) * residual / residual.sum()))
print("min + (1 - a) * p_target (resample target)", fmt(overlap + (1 - a) * p_target))

# 2. Expected tokens per step with accept rate a at each of K drafts: 1 + a + ... + a^K
# = (1 - a^(K+1)) / (1 - a), checked by counting 10,000 steps of the reference (mean +- its
# standard error).
g = torch.Generator().manual_seed(0)
K = 4
for a_target in (0.5, 0.8):
    q = torch.tensor([a_target, 1 - a_target, 0.0], dtype=torch.float64)  # the draft
    p = torch.tensor([a_target, 0.0, 1 - a_target], dtype=torch.float64)  # the target: sum min = a
    rate = float(torch.minimum(p, q).sum())
    pd, pt = q.expand(K, 3), p.expand(K + 1, 3)
    drafts = torch.multinomial(pd, 10_000, replacement=True, generator=g).T
    lengths = torch.tensor([speculative_step(pd, pt, d, g).numel() for d in drafts], dtype=torch.float64)
    print(f"a = {rate:.2f}, K = {K}: formula {(1 - rate ** (K + 1)) / (1 - rate):.3f} tokens per step,"
          f" counted {float(lengths.mean()):.3f} +- {float(lengths.std() / 100):.3f}")

# 3. When it pays: speed-up = tokens per step / cost of a step, with a step costing K draft
# forwards at c target-forwards each plus one target forward (an assumption, not a measurement).
for rate, k, c in ((0.8, 4, 0.05), (0.8, 4, 0.2), (0.5, 4, 0.2), (0.3, 4, 0.2), (0.8, 8, 0.2)):
    tokens = (1 - rate ** (k + 1)) / (1 - rate)
    print(f"a = {rate}, K = {k}, draft cost c = {c}: {tokens:.2f} tokens for {k * c + 1:.2f}"
          f" target-forwards, speed-up {tokens / (k * c + 1):.2f}")

# 4. Greedy (one-hot rows): the draft token is kept exactly when it is the target's argmax, and a
# rejection's residual is one-hot at the target's argmax.
pd = torch.eye(5, dtype=torch.float64)[[2, 0, 3]]  # the draft greedily proposed 2, 0, 3
pt = torch.eye(5, dtype=torch.float64)[[2, 1, 4, 0]]  # the target's argmaxes: 2, 1, 4, then 0
print("greedy: drafts [2, 0, 3], target argmaxes [2, 1, 4, 0] ->",
      speculative_step(pd, pt, torch.tensor([2, 0, 3]), g).tolist())
