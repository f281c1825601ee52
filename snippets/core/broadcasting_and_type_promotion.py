import warnings

import torch
from torch import nn

torch.manual_seed(0)
N = 4
pred = torch.randn(N, 1)  # a model's output: one column
target = torch.randn(N)   # labels: a flat vector

diff = pred - target  # (4, 1) against (4,): broadcast to (4, 4)
print("pred", tuple(pred.shape), "target", tuple(target.shape), "pred - target", tuple(diff.shape))
print("wrong loss ((pred - target) ** 2).mean():", round(diff.pow(2).mean().item(), 4))
print("right loss, pred.squeeze(1):            ", round((pred.squeeze(1) - target).pow(2).mean().item(), 4))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = nn.MSELoss()(pred, target)
print("nn.MSELoss()(pred, target):", round(loss.item(), 4))
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
