#| devices: cpu
#| timeout: 60
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP


def checksum(model):
    return round(sum(p.sum().item() for p in model.parameters()), 4)


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(rank)  # each rank builds different weights on purpose
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    before = checksum(model)
    ddp = DDP(model)  # broadcasts rank 0's parameters and buffers
    after_init = checksum(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    x = torch.randn(4, 8)  # a different batch on each rank
    local = torch.autograd.grad(model(x).pow(2).mean(), model[0].weight)[0]
    local = round(local.sum().item(), 4)  # this rank's own gradient, not synced
    ddp(x).pow(2).mean().backward()
    grad = round(model[0].weight.grad.sum().item(), 4)
    opt.step()
    after_step = checksum(model)
    rows = [None] * world_size
    dist.all_gather_object(rows, (rank, before, after_init, local, grad, after_step))
    if rank == 0:
        print("rank  before DDP  after DDP()  local grad  DDP grad  after step")
        for r, b, a, lg, g, s in rows:
            print(f"{r:>4}  {b:>10}  {a:>11}  {lg:>10}  {g:>8}  {s:>10}")
    del ddp  # drop DDP and its reducer before the group goes: a workaround for a rare hang seen at exit
    dist.barrier()  # every rank done before the group is torn down
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
