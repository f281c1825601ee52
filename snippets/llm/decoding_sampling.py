import torch
from _sampling import apply_temperature, apply_top_k, apply_top_p, sample

torch.manual_seed(0)
logits = torch.tensor([2.0, 1.0, 0.5, 0.0, -1.0])
N = 100_000


def freqs(processed, seed=0):
    g = torch.Generator().manual_seed(seed)
    draws = sample(processed.expand(N, -1), g)
    return torch.bincount(draws, minlength=5) / N, draws


def show(name, processed):
    f, _ = freqs(processed)
    p = processed.softmax(-1)
    print(f"{name:<12} softmax {[round(x, 3) for x in p.tolist()]}")
    print(f"{'':<12} counted {[round(x, 3) for x in f.tolist()]}"
          f"  max |diff| < 0.005: {(f - p).abs().max().item() < 0.005}")


show("T=1", logits)
show("T=0.5", apply_temperature(logits, 0.5))
show("T=2", apply_temperature(logits, 2.0))
show("top-k=2", apply_top_k(logits, 2))
show("top-p=0.8", apply_top_p(logits, 0.8))

_, plain = freqs(logits, seed=1)
_, p1 = freqs(apply_top_p(logits, 1.0), seed=1)
print("top_p=1.0 keeps every token:", torch.isfinite(apply_top_p(logits, 1.0)).all().item(),
      "| same draws as plain sampling (same seed):", torch.equal(plain, p1))
print("greedy (argmax):", logits.argmax().item())
for t in (0.1, 0.01):
    print(f"T={t}: softmax {[round(x, 4) for x in apply_temperature(logits, t).softmax(-1).tolist()]}")
print("T=0: logits / 0 =", (logits / 0.0).tolist())
print("softmax of that:", (logits / 0.0).softmax(-1).tolist())

# top_p=1.0 on a peaked row: in float32 the running mass reaches 1.0 before the tail
peaked = torch.tensor([20.0, 0.0, 0.0, 0.0, 0.0])
print("peaked probs:", [float(f"{x:.3g}") for x in peaked.softmax(-1).tolist()])
print("top_p=1.0 on the peaked row keeps", torch.isfinite(apply_top_p(peaked, 1.0)).sum().item(),
      "of 5 tokens")
