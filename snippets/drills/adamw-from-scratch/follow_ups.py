# The follow-ups of adamw-from-scratch, on the pinned torch: Adam's L2 weight decay against
# AdamW's decoupled decay, what bias correction is worth at step t, what AdamW keeps per parameter,
# and which implementation torch.optim.AdamW picks on CPU.
import math

import torch
from torch.optim.optimizer import _default_to_fused_or_foreach

torch.manual_seed(0)


def run(optimizer, grad, steps=100, **hyper):
    """One parameter, 1.0, stepped `steps` times with the loss gradient `grad` each time."""
    p = torch.ones(1, dtype=torch.float64, requires_grad=True)
    opt = optimizer([p], foreach=False, **hyper)
    for _ in range(steps):
        p.grad = torch.full_like(p, grad)
        opt.step()
    return p.item()


# A weight with no loss gradient (a zero grad, not None), lr=0.01, 100 steps.
for wd in (0.1, 0.01):
    adamw, adam = (run(o, 0.0, lr=0.01, weight_decay=wd) for o in (torch.optim.AdamW, torch.optim.Adam))
    print(f"zero gradient, weight_decay={wd}: AdamW leaves {adamw:.3f} ((1 - lr * wd)**100 ="
          f" {(1 - 0.01 * wd) ** 100:.3f}), Adam with L2 leaves {adam:.3f}")
# A weight with a large loss gradient (100): how far the decay moved it in 100 steps.
for name, optimizer in (("Adam with L2", torch.optim.Adam), ("AdamW", torch.optim.AdamW)):
    moved = abs(run(optimizer, 100.0, lr=0.01, weight_decay=0.0)
                - run(optimizer, 100.0, lr=0.01, weight_decay=0.1))
    print(f"gradient 100, weight_decay=0.1: the decay moved the weight by {moved:.2g} under {name}")

# Without bias correction the update is (1 - beta1**t) / sqrt(1 - beta2**t) times torch's (eps aside).
for t in (1, 10, 100, 1000, 10000):
    print(f"t={t}: uncorrected / corrected update = {(1 - 0.9**t) / math.sqrt(1 - 0.999**t):.3f}")
p = torch.randn(1000, dtype=torch.float64, requires_grad=True)
start = p.detach().clone()
p.grad = torch.randn(1000, dtype=torch.float64)
torch.optim.AdamW([p], lr=1e-3, weight_decay=0.0).step()
ratio = (start - p.detach()) / (1e-3 * p.grad.sign())  # the first update over lr * sign(grad)
print(f"first step of torch.optim.AdamW, 1000 weights: update / (lr * sign(grad)) from"
      f" {ratio.min().item():.4f} to {ratio.max().item():.4f}")

# What torch.optim.AdamW keeps for each parameter after one step.
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
opt = torch.optim.AdamW(model.parameters())
model(torch.randn(8, 64)).sum().backward()
opt.step()
state = opt.state[model[0].weight]
print("state keys:", sorted(state), "| step:", state["step"].dtype, state["step"].device,
      tuple(state["step"].shape))
print("exp_avg and exp_avg_sq:", state["exp_avg"].dtype, tuple(state["exp_avg"].shape), "for weight",
      tuple(model[0].weight.shape))
param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
moment_bytes = sum(s[k].numel() * s[k].element_size() for s in opt.state.values()
                   for k in ("exp_avg", "exp_avg_sq"))
print("moment bytes / parameter bytes:", moment_bytes / param_bytes)
print("state_dict()['state'] keys:", list(opt.state_dict()["state"]))

# Which loop torch.optim.AdamW runs on CPU when neither foreach nor fused is given.
print("on CPU, (fused, foreach) by default:", _default_to_fused_or_foreach(list(model.parameters()), False))
params = [torch.randn(32, 16, dtype=torch.float64) for _ in range(3)]
final = {}
for kind in ("foreach=False", "foreach=True", "fused=True"):
    ps = [q.clone().requires_grad_() for q in params]
    flag, value = kind.split("=")
    opt = torch.optim.AdamW(ps, lr=1e-2, **{flag: value == "True"})
    for step in range(20):
        g = torch.Generator().manual_seed(step)
        for q in ps:
            q.grad = torch.randn(q.shape, generator=g, dtype=q.dtype)
        opt.step()
    final[kind] = torch.cat([q.detach().reshape(-1) for q in ps])
for kind in ("foreach=True", "fused=True"):
    diff = (final[kind] - final["foreach=False"]).abs().max().item()
    print(f"{kind} after 20 steps, float64, CPU: within 1e-12 of foreach=False:", diff < 1e-12)
