import warnings

import torch
from torch.optim.lr_scheduler import LinearLR

for order in ("optimizer first", "scheduler first"):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=1.0)
    sched = LinearLR(opt, start_factor=0.25, total_iters=3)
    used = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(4):
            p.grad = torch.ones(1)
            if order == "scheduler first":
                sched.step()
            used.append(opt.param_groups[0]["lr"])
            opt.step()
            if order == "optimizer first":
                sched.step()
    print(f"{order}: lr used by the first four steps {used}")
    for w in caught:
        print(f"  {w.category.__name__}: {w.message}")
