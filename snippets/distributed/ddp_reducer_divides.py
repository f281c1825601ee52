#| devices: cpu
#| timeout: 60
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

os.environ["KINETO_LOG_LEVEL"] = "6"  # mute the profiler's start/stop lines (times, pids)


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    ddp = DDP(torch.nn.Linear(8, 1))  # no comm hook registered
    x = torch.full((4, 8), float(rank + 1))  # rank 0: ones, rank 1: twos
    with torch.profiler.profile() as prof:
        ddp(x).sum().backward()
    names = sorted({e.name for e in prof.events() if "reducer" in e.name})
    if rank == 0:
        print("reducer ops in backward:", names)
        print("bias grad (local 4 and 4, mean 4):", ddp.module.bias.grad.item())
        print("weight grad[0, 0] (local 4 and 8, mean 6):", ddp.module.weight.grad[0, 0].item())
    del ddp
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
