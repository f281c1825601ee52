import copy

import torch
from torch.utils.checkpoint import checkpoint
from torch.utils.flop_counter import FlopCounterMode

torch.manual_seed(0)
block = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8), torch.nn.ReLU())
x = torch.randn(16, 8, requires_grad=True)


def step(model, use_checkpoint):
    with FlopCounterMode(display=False) as flops:
        out = checkpoint(model, x, use_reentrant=False) if use_checkpoint else model(x)
        out.sum().backward()
    return flops.get_total_flops()


plain, ckpt, twice = copy.deepcopy(block), copy.deepcopy(block), copy.deepcopy(block)
flops_plain = step(plain, use_checkpoint=False)
flops_ckpt = step(ckpt, use_checkpoint=True)
with torch.no_grad():  # two plain forwards on the same batch, for comparison
    twice(x)
    twice(x)

for name, m in [("plain step", plain), ("checkpoint step", ckpt), ("two plain forwards", twice)]:
    bn = m[1]
    print(f"{name:18} num_batches_tracked={bn.num_batches_tracked.item()}"
          f" running_mean[:3]={[round(v, 4) for v in bn.running_mean[:3].tolist()]}")
print("checkpoint stats == two forwards:",
      torch.equal(ckpt[1].running_mean, twice[1].running_mean)
      and torch.equal(ckpt[1].running_var, twice[1].running_var))
print("same parameter gradients:",
      all(torch.equal(a.grad, b.grad) for a, b in zip(plain.parameters(), ckpt.parameters())))
print("FLOPs, forward + backward: plain", flops_plain, "| checkpoint", flops_ckpt)
