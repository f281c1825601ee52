# The follow-ups of temperature-top-k-sampling, on the pinned torch: temperature on the
# probabilities instead of the logits, whether temperature and top-k commute, what small and large
# temperatures do, how a random sampler is tested by counting, and argmax among ties.
import math

import torch


def filter_logits(logits, temperature, top_k=None):  # the drill's reference
    scaled = logits / temperature
    if top_k is None or top_k >= scaled.shape[-1]:
        return scaled
    kth = scaled.topk(top_k, dim=-1).values[..., -1:]
    return scaled.masked_fill(scaled < kth, float("-inf"))


def frequencies(weights, n, seed):
    """torch.multinomial's token frequencies over n draws of one row of weights."""
    g = torch.Generator().manual_seed(seed)
    draws = torch.multinomial(weights.expand(n, -1), 1, generator=g).squeeze(-1)
    return torch.bincount(draws, minlength=weights.shape[-1]).double() / n


def fmt(t):
    return "[" + ", ".join(f"{x:.3f}" for x in t.tolist()) + "]"


logits = torch.tensor([2.0, 1.0, 0.5, 0.0, -1.0], dtype=torch.float64)
probs = torch.softmax(logits, dim=-1)
T = 0.5

# 1. Temperature on the probabilities. torch.multinomial takes unnormalised weights.
print("softmax(logits)              ", fmt(probs))
print("softmax(logits / 0.5)        ", fmt(torch.softmax(logits / T, dim=-1)))
print("softmax(logits) / 0.5, renormalised  ", fmt((probs / T) / (probs / T).sum()))
print("softmax(logits) ** 2, renormalised   ", fmt(probs ** (1 / T) / (probs ** (1 / T)).sum()))
print("multinomial frequencies of probs / 0.5 (40,000 draws):", fmt(frequencies(probs / T, 40_000, 0)))
print("multinomial frequencies of probs ** 2  (40,000 draws):", fmt(frequencies(probs ** (1 / T), 40_000, 0)))

# 2. Temperature and top-k commute for T > 0: dividing keeps the order of the logits.
g = torch.Generator().manual_seed(0)
batch = torch.randn(8, 1000, generator=g)
same = all(torch.equal(filter_logits(batch, t, k), filter_logits(batch, 1.0, k) / t)
           for t in (0.3, 0.7, 1.9) for k in (1, 10, 50))
print("top-k of logits / T equals (top-k of logits) / T, T = 0.3, 0.7, 1.9, k = 1, 10, 50:", same)

# 3. Small and large temperatures, on one row of 1000 randn logits, top_k 50.
row = batch[:1]
for t in (0.05, 0.5, 1.0, 2.0, 100.0):
    p = torch.softmax(filter_logits(row, t, 50), dim=-1)[0]
    kept = p[p > 0]
    entropy = float(-(kept * kept.log()).sum())
    print(f"T = {t:>6}: top probability {float(p.max()):.3f}, entropy {entropy:.2f} nats"
          f" (uniform over 50: {math.log(50):.2f})")

# 4. Testing a random sampler: the largest z-score, |frequency - p| / sqrt(p (1 - p) / n), over the
# tokens of one row, for 20 generator seeds, n = 10,000 draws each.
row = torch.randn(8, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
target = torch.softmax(row / 0.7, dim=-1)
se = (target * (1 - target) / 10_000).sqrt()
right = [float(((frequencies(target, 10_000, s) - target).abs() / se).max()) for s in range(20)]
wrong_w = torch.softmax(row, dim=-1) / 0.7  # temperature on the probabilities: T = 1 in effect
wrong = [float(((frequencies(wrong_w, 10_000, s) - target).abs() / se).max()) for s in range(20)]
print(f"right sampler, largest z over 20 seeds: {max(right):.1f} (smallest {min(right):.1f})")
print(f"probabilities / T, smallest of the 20 largest z: {min(wrong):.1f}")

# 5. torch.argmax among ties: the first index.
print("argmax of [0, 2, 1, 2]:", int(torch.tensor([0.0, 2.0, 1.0, 2.0]).argmax()),
      "| of [5, 5, 5, 5]:", int(torch.tensor([5.0, 5.0, 5.0, 5.0]).argmax()))
print(f"chance a normal z-score is beyond 5 either way: {math.erfc(5 / math.sqrt(2)):.1e}")
masked = torch.softmax(filter_logits(batch, 0.7, 50), dim=-1)
print("softmax of the filtered logits is exactly 0.0 outside the top 50 (8 rows of 1000):",
      bool((masked[filter_logits(batch, 0.7, 50) == float("-inf")] == 0).all()),
      "| kept per row:", (masked > 0).sum(dim=-1).tolist())
