#| devices: cpu
#| timeout: 60
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    dataset = TensorDataset(torch.randn(16, 8), torch.randn(16, 1))
    sampler = DistributedSampler(dataset)  # num_replicas and rank from the process group
    loader = DataLoader(dataset, batch_size=4, sampler=sampler)
    ddp = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    steps = 0
    for epoch in range(2):
        sampler.set_epoch(epoch)
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.mse_loss(ddp(x), y).backward()
            opt.step()
            steps += 1
    rows = [None] * world_size
    dist.all_gather_object(rows, (rank, steps, opt.param_groups[0]["lr"]))
    if rank == 0:
        print(f"world size {world_size}, per-rank batch 4, SGD(lr=0.1):")
        for r, n, lr in rows:
            print(f"  rank {r}: {n} optimizer steps, lr after them: {lr}")
    del ddp
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
