# The follow-ups of top-p-sampling, on the pinned torch: sampling from the filtered logits,
# temperature before or after the filter, skipping the full sort with topk, and why p = 1 is a
# case of its own in float32.
import torch


def top_p_filter(logits, p):  # the drill's reference
    if p >= 1.0:
        return logits.clone()
    sorted_probs, order = torch.softmax(logits, dim=-1).sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    keep = torch.zeros_like(before, dtype=torch.bool).scatter(-1, order, before < p)
    return logits.masked_fill(~keep, float("-inf"))


g = torch.Generator().manual_seed(0)
logits = torch.randn(4, 1000, generator=g) * 3

# Sampling: softmax of the filtered logits, then torch.multinomial.
filtered = top_p_filter(logits, 0.9)
kept = filtered != float("-inf")
probs = torch.softmax(filtered, dim=-1)
print("tokens kept per row at p = 0.9:", kept.sum(dim=-1).tolist())
print("softmax gives exactly 0.0 outside the nucleus:", bool((probs[~kept] == 0).all()))
full = torch.softmax(logits, dim=-1)
renormalised = torch.where(kept, full, 0) / (full * kept).sum(dim=-1, keepdim=True)
print("inside, the probabilities are the original ones divided by the nucleus's mass:",
      torch.allclose(probs, renormalised, atol=1e-7))
draws = torch.multinomial(probs, 10_000, replacement=True, generator=g)
print("10,000 draws per row, all inside the nucleus:", bool(kept.gather(-1, draws).all()))
nothing_kept = torch.full((1, 5), float("-inf"))
print("softmax of a row that is all -inf is all NaN:",
      bool(torch.softmax(nothing_kept, dim=-1).isnan().all()))

# Temperature changes the probabilities the nucleus is counted on.
row = logits[:1]
for t in (0.5, 1.0, 1.5):
    size = int((top_p_filter(row / t, 0.9) != float("-inf")).sum())
    print(f"temperature {t} then top-p 0.9: {size} tokens kept")
after = int((top_p_filter(row, 0.9) / 1.5 != float("-inf")).sum())
print(f"top-p 0.9 then temperature 1.5: {after} tokens kept (dividing -inf leaves it -inf)")

# A full sort of V per row can be avoided: take the top k with topk, and fall back to the full
# sort only for rows whose top k do not reach p.
def top_p_via_topk(logits, p, k):
    index = logits.topk(k, dim=-1).indices  # sorted, largest first
    probs = torch.softmax(logits, dim=-1).gather(-1, index)
    before = probs.cumsum(dim=-1) - probs
    reached = probs.sum(dim=-1) >= p
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, index, before < p)
    return logits.masked_fill(~keep, float("-inf")), reached


scales = torch.tensor([[6.0], [6.0], [6.0], [1.0]])
peaked = torch.randn(4, 32_000, generator=torch.Generator().manual_seed(1)) * scales
fast, reached = top_p_via_topk(peaked, 0.9, 256)
slow = top_p_filter(peaked, 0.9)
print("V = 32000, rows x 6, 6, 6, 1: nucleus sizes at p = 0.9 of the first three:",
      (slow[:3] != float("-inf")).sum(dim=-1).tolist())
print("rows whose top 256 reach p = 0.9:", reached.tolist())
print("topk(256) version equals the full sort on those rows:", torch.equal(fast[reached], slow[reached]))

# p = 1: in float32 the top probability of this row is exactly 1.0 (1 + e^-30 rounds to 1).
sharp = torch.tensor([[0.0, -30.0, -31.0, -32.0]])
sharp_probs = torch.softmax(sharp, dim=-1)
print("float32 softmax of 0, -30, -31, -32: top probability == 1.0:", sharp_probs[0, 0].item() == 1.0,
      "| the others > 0:", bool((sharp_probs[0, 1:] > 0).all()))
sorted_probs = sharp_probs.sort(dim=-1, descending=True).values
before = sorted_probs.cumsum(dim=-1) - sorted_probs
print("'before < p' with p = 1.0 keeps", int((before < 1.0).sum()), "of 4 tokens;"
      " the reference's early return keeps", int((top_p_filter(sharp, 1.0) != float("-inf")).sum()))
