#| fresh: true
# The follow-ups of cross-entropy-from-scratch, on the pinned torch: what label smoothing is, the
# gradient of the loss, and what a large vocabulary costs (peak memory, so a fresh python).
import resource

import torch
import torch.nn.functional as F
from _reference import cross_entropy

g = torch.Generator().manual_seed(0)
N, C, eps = 6, 5, 0.1
logits = torch.randn(N, C, generator=g, dtype=torch.float64)
target = torch.tensor([3, 0, -100, 4, 1, -100])
keep = target != -100

# Label smoothing is a soft target: (1 - eps) on the class plus eps / C on every class.
soft = torch.full((N, C), eps / C, dtype=torch.float64)
soft[keep, target[keep]] += 1 - eps
smoothed = F.cross_entropy(logits[keep], target[keep], label_smoothing=eps)
print("label_smoothing=0.1 equals a soft target 0.9 * one-hot + 0.1 / C:",
      torch.allclose(smoothed, F.cross_entropy(logits[keep], soft[keep])))

# The gradient of the mean loss: (softmax - the target distribution) / kept count, 0 where ignored.
for smoothing in (0.0, eps):
    dist = torch.full((N, C), smoothing / C, dtype=torch.float64)
    dist[keep, target[keep]] += 1 - smoothing
    leaf = logits.clone().requires_grad_()
    (grad,) = torch.autograd.grad(F.cross_entropy(leaf, target, label_smoothing=smoothing), leaf)
    by_hand = torch.where(keep[:, None], (logits.softmax(dim=1) - dist) / keep.sum(), 0.0)
    print(f"label_smoothing={smoothing}: the gradient is (softmax - target) / kept count, zero rows"
          " where ignored:", torch.allclose(grad, by_hand))

# Every target ignored.
none_kept = torch.full((N,), -100)
leaf = logits.clone().requires_grad_()
loss = F.cross_entropy(leaf, none_kept)
(grad,) = torch.autograd.grad(loss, leaf)
total = F.cross_entropy(logits, none_kept, reduction="sum")
print(f"every target ignored: reduction='mean' gives {loss.item()}, with a gradient of all zeros:"
      f" {bool((grad == 0).all())}; reduction='sum' gives {total.item()}")

# Softmax then log, against log_softmax, at logits of 1000.
row = torch.tensor([[1000.0, 0.0, -1000.0]])
print("softmax(row).log():", torch.softmax(row, dim=1).log().tolist())
print("log_softmax(row):  ", F.log_softmax(row, dim=1).tolist())


# A language-model head: 2,048 tokens, hidden size 128, a vocabulary of 32,768. The float32
# (2048, 32768) logits are 256 MiB. Measured: the growth of this process's peak memory for one
# forward and backward, F.linear_cross_entropy in chunks of 256 rows (a 32 MiB logits chunk)
# against the drill's reference on the full logits.
def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


tokens, hidden, vocab = 2048, 128, 32768
x = torch.randn(tokens, hidden, generator=g)
w = torch.randn(vocab, hidden, generator=g) / hidden**0.5
t = torch.randint(0, vocab, (tokens,), generator=g)
options = torch.nn.LinearCrossEntropyOptions(chunking_method=None, batch_chunk_size=256)

print(f"the float32 ({tokens}, {vocab}) logits: {tokens * vocab * 4 / 2**20:.0f} MiB")
x1, w1 = x.clone().requires_grad_(), w.clone().requires_grad_()
before = peak_mib()
chunked = F.linear_cross_entropy(x1, w1, t, options=options)
chunked.backward()
chunked_growth = peak_mib() - before

x2, w2 = x.clone().requires_grad_(), w.clone().requires_grad_()
before = peak_mib()
full = cross_entropy(x2 @ w2.T, t)  # the drill's reference, on the full logits
full.backward()
full_growth = peak_mib() - before

print("same loss and gradients:", torch.allclose(chunked, full, atol=1e-5),
      torch.allclose(x1.grad, x2.grad, atol=1e-6), torch.allclose(w1.grad, w2.grad, atol=1e-6))
print("peak memory grew by more than 768 MiB (3 x the logits) from scratch:", full_growth > 768)
print("peak memory grew by less than 256 MiB (1 x the logits) chunked:", chunked_growth < 256)
