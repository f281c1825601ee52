import torch
from torch.optim.lr_scheduler import CosineAnnealingLR

epochs, batches_per_epoch = 4, 5


def lrs_at_epoch_starts(t_max, step_per_batch):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=1.0)
    sched = CosineAnnealingLR(opt, T_max=t_max)
    starts = []
    for epoch in range(epochs):
        starts.append(round(opt.param_groups[0]["lr"], 4))
        for _ in range(batches_per_epoch):
            p.grad = torch.ones(1)
            opt.step()
            if step_per_batch:
                sched.step()
        if not step_per_batch:
            sched.step()
    return starts


print("T_max=epochs, stepped per epoch:        ", lrs_at_epoch_starts(epochs, False))
print("T_max=total batches, stepped per batch: ", lrs_at_epoch_starts(epochs * batches_per_epoch, True))
print("T_max=epochs, but stepped per batch:    ", lrs_at_epoch_starts(epochs, True))
