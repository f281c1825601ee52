import torch

torch.manual_seed(0)
g = torch.Generator().manual_seed(0)

# Target p and draft q over a 5-token vocabulary, the same at every position.
p = torch.tensor([0.40, 0.25, 0.15, 0.15, 0.05])
q = torch.tensor([0.10, 0.40, 0.30, 0.10, 0.10])
N, K = 200_000, 4                      # N independent steps, K draft tokens each

x = torch.multinomial(q, N * K, replacement=True, generator=g).view(N, K)
u = torch.rand(N, K, generator=g)
accept = u < torch.clamp(p[x] / q[x], max=1.0)          # keep x with prob min(1, p/q)
n_acc = accept.int().cumprod(dim=1).sum(dim=1)          # accepted prefix length, 0..K

residual = torch.clamp(p - q, min=0)
residual = residual / residual.sum()                    # max(0, p - q), normalised
fix = torch.multinomial(residual, N, replacement=True, generator=g)
bonus = torch.multinomial(p, N, replacement=True, generator=g)
last = torch.where(n_acc == K, bonus, fix)              # the one token the target adds

keep = torch.arange(K) < n_acc[:, None]
emitted = torch.cat([x[keep], last])
freq = torch.bincount(emitted, minlength=5) / emitted.numel()
print("target p          ", [round(v, 3) for v in p.tolist()])
print("draft q           ", [round(v, 3) for v in q.tolist()])
print("emitted freq      ", [round(f, 3) for f in freq.tolist()])
print("tokens counted    ", emitted.numel())

# Wrong variant: on rejection draw from p itself instead of the residual.
wrong_last = torch.where(n_acc == K, bonus,
                         torch.multinomial(p, N, replacement=True, generator=g))
wrong = torch.cat([x[keep], wrong_last])
wfreq = torch.bincount(wrong, minlength=5) / wrong.numel()
print("resample from p   ", [round(f, 3) for f in wfreq.tolist()])

alpha = torch.minimum(p, q).sum().item()                # accept rate = sum min(p, q)
print("accept rate  formula", round(alpha, 3), " counted", round(accept.float().mean().item(), 3))
expected = (1 - alpha ** (K + 1)) / (1 - alpha)         # tokens per target call
print("tokens/call  formula", round(expected, 3), " counted", round((n_acc + 1).float().mean().item(), 3))
