import copy

import torch
from _reference import accumulate_step
from torch import nn

torch.manual_seed(0)
x, y = torch.randn(16, 5, dtype=torch.float64), torch.randn(16, 3, dtype=torch.float64)
micro = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 16, 4)]
loss_fn = nn.MSELoss()


def large_batch_step(model, optimizer):
    optimizer.zero_grad()
    loss_fn(model(x), y).backward()
    optimizer.step()


def largest_gap(a, b):
    return max((p - q).abs().max().item() for p, q in zip(a.parameters(), b.parameters()))


# BatchNorm: the statistics are those of the batch the layer sees, so 4 micro-batches of 4 are
# normalised with 4 different means and variances, not the one of all 16.
bn_model = nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.Tanh(), nn.Linear(8, 3)).double()
bn_large, bn_accum = copy.deepcopy(bn_model), copy.deepcopy(bn_model)
large_batch_step(bn_large, torch.optim.SGD(bn_large.parameters(), lr=0.1))
accumulate_step(bn_accum, loss_fn, torch.optim.SGD(bn_accum.parameters(), lr=0.1), micro)
grad_gap = max((p.grad - q.grad).abs().max().item()
               for p, q in zip(bn_large.parameters(), bn_accum.parameters()))
print(f"BatchNorm, 16 at once vs 4 x 4 accumulated: largest gradient difference {grad_gap:.2e}")
print("  running_mean equal:", torch.allclose(bn_large[1].running_mean, bn_accum[1].running_mean),
      "| num_batches_tracked:", int(bn_large[1].num_batches_tracked), "vs",
      int(bn_accum[1].num_batches_tracked))
plain = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3)).double()
plain_large, plain_accum = copy.deepcopy(plain), copy.deepcopy(plain)
large_batch_step(plain_large, torch.optim.SGD(plain_large.parameters(), lr=0.1))
accumulate_step(plain_accum, loss_fn, torch.optim.SGD(plain_accum.parameters(), lr=0.1), micro)
print("without BatchNorm: the same parameters within 1e-12:", largest_gap(plain_large, plain_accum) < 1e-12)
ln_model = nn.Sequential(nn.Linear(5, 8), nn.LayerNorm(8), nn.Tanh(), nn.Linear(8, 3)).double()
ln_large, ln_accum = copy.deepcopy(ln_model), copy.deepcopy(ln_model)
large_batch_step(ln_large, torch.optim.SGD(ln_large.parameters(), lr=0.1))
accumulate_step(ln_accum, loss_fn, torch.optim.SGD(ln_accum.parameters(), lr=0.1), micro)
print("LayerNorm instead of BatchNorm: the same parameters within 1e-12:",
      largest_gap(ln_large, ln_accum) < 1e-12)


# The sum-of-means mistake (no scaling: 4 times the gradient) against each optimizer.
def sum_of_means(model, optimizer):
    optimizer.zero_grad()
    for xb, yb in micro:
        loss_fn(model(xb), yb).backward()
    optimizer.step()


for name, make in (("SGD", lambda p: torch.optim.SGD(p, lr=0.1)),
                   ("AdamW", lambda p: torch.optim.AdamW(p, lr=0.01))):
    right, wrong = copy.deepcopy(plain), copy.deepcopy(plain)
    large_batch_step(right, make(right.parameters()))
    sum_of_means(wrong, make(wrong.parameters()))
    print(f"{name}: 4x the gradient moves the parameters {largest_gap(right, wrong):.1e} away"
          " from the large-batch step")
right, wrong = copy.deepcopy(plain), copy.deepcopy(plain)
large_batch_step(right, torch.optim.AdamW(right.parameters(), lr=0.01, eps=0.0))
sum_of_means(wrong, torch.optim.AdamW(wrong.parameters(), lr=0.01, eps=0.0))
print("AdamW with eps=0: 4x the gradient gives the same parameters within 1e-12:",
      largest_gap(right, wrong) < 1e-12)
