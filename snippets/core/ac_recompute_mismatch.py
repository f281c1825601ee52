import torch
from torch.utils.checkpoint import CheckpointError, checkpoint

x = torch.tensor([1.0, 2.0], requires_grad=True)


def differs_on_recompute(first, again):
    """A region that runs `first` in the forward and `again` when the backward recomputes it."""
    calls = []

    def region(t):
        calls.append(1)
        return first(t) if len(calls) == 1 else again(t)
    return region


# 1. The recompute saves fewer tensors than the forward did: the check catches it.
x.grad = None
try:
    checkpoint(differs_on_recompute(lambda t: t.sin().sin(), lambda t: t.sin()), x,
               use_reentrant=False).sum().backward()
except CheckpointError as e:
    print("sin(sin(x)), then sin(x):", type(e).__name__)
    print("\n".join("  " + line for line in str(e).splitlines()[:3]))

# 2. The recompute saves one tensor of the same shape, dtype and device: no error, a wrong gradient.
x.grad = None
checkpoint(differs_on_recompute(lambda t: t.sin(), lambda t: (2 * t).sin()), x,
           use_reentrant=False).sum().backward()
print("sin(x), then sin(2x):      x.grad", [round(g, 4) for g in x.grad.tolist()],
      "| correct, cos(x):", [round(g, 4) for g in x.detach().cos().tolist()])
