#| devices: cpu
import torch
from torch.export import export


class UpperOnly(torch.nn.Module):
    def forward(self, x, k):
        n = k.item()
        torch._check(n <= x.shape[0])  # an upper bound only
        return x[:n]


class BothBounds(torch.nn.Module):
    def forward(self, x, k):
        n = k.item()
        torch._check(n >= 0)  # the lower bound needs its own check
        torch._check(n <= x.shape[0])
        return x[:n]


x = torch.arange(8.0)
for model in (UpperOnly(), BothBounds()):
    ep = export(model, (x, torch.tensor(3)))
    print(f"{type(model).__name__:10} range_constraints: {ep.range_constraints}")
    try:
        print("  k=-2 ->", ep.module()(x, torch.tensor(-2)))  # a negative slice end, as in eager
    except RuntimeError as e:
        print("  k=-2 -> RuntimeError:", e)
