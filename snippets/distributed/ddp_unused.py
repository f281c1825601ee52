#| devices: cpu
#| timeout: 60
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(4, 4)
        self.head_a = torch.nn.Linear(4, 1)
        self.head_b = torch.nn.Linear(4, 1)  # never used in forward

    def forward(self, x):
        return self.head_a(self.body(x))


def two_steps(rank, world_size, find_unused):
    ddp = DDP(TwoHeads(), find_unused_parameters=find_unused)
    torch.manual_seed(rank)  # a different batch on each rank
    ddp(torch.randn(2, 4)).sum().backward()  # step 1
    grads = [None] * world_size
    dist.all_gather_object(grads, ddp.module.body.weight.grad.clone())
    phase = "forward"
    try:
        out = ddp(torch.randn(2, 4))  # step 2
        phase = "backward"
        out.sum().backward()
        outcome = "ran"
    except RuntimeError as e:
        outcome = f"RuntimeError in {phase}: {e}"
    outcomes = [None] * world_size
    dist.all_gather_object(outcomes, outcome.replace(f"rank {rank}", "rank R"))
    if rank == 0:
        print(f"find_unused_parameters={find_unused}")
        print("  step 1: body.weight.grad equal on both ranks:", torch.equal(*grads))
        print("  step 1: head_b.weight.grad:", ddp.module.head_b.weight.grad)
        print("  step 2 on rank 0:", outcomes[0].replace("rank R", "rank 0"))
        print("  rank 1 the same:", outcomes[1] == outcomes[0])


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    for find_unused in (False, True):
        two_steps(rank, world_size, find_unused)
    dist.barrier()  # every rank done before the group is torn down
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
