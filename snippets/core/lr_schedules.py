import warnings

import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.AdamW([p], lr=1.0)  # lr 1.0 so the printed values are the factors
warmup_steps, total_steps = 4, 12
warmup = LinearLR(opt, start_factor=0.25, end_factor=1.0, total_iters=warmup_steps)
cosine = CosineAnnealingLR(opt, T_max=total_steps - warmup_steps, eta_min=0.0)
sched = SequentialLR(opt, schedulers=[warmup, cosine], milestones=[warmup_steps])

for step in range(total_steps + 2):
    lr_used = opt.param_groups[0]["lr"]
    p.grad = torch.ones(1)
    opt.step()  # first the optimizer, with lr_used
    sched.step()  # then the scheduler, which sets the lr for the next step
    print(f"step {step:2d}: lr used {lr_used:.4f} | get_last_lr() after step {sched.get_last_lr()[0]:.4f}")

# get_lr() is not a getter: called outside step(), it warns and returns another value.
opt2 = torch.optim.SGD([p], lr=1.0)
lin = LinearLR(opt2, start_factor=0.25, total_iters=4)
opt2.step()
lin.step()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    outside = lin.get_lr()[0]
print(f"LinearLR after one step: get_last_lr() {lin.get_last_lr()[0]:.4f} | get_lr() {outside:.4f}")
print(f"  {caught[0].category.__name__}: {caught[0].message}")
opt2.step()
lin.step()
print(f"after the next step: get_last_lr() {lin.get_last_lr()[0]:.4f}")
