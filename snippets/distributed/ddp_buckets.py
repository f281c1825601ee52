#| devices: cpu
#| timeout: 60
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = torch.nn.Sequential(*[torch.nn.Linear(256, 256) for _ in range(4)])  # 257 KiB per layer
    ddp = DDP(model, bucket_cap_mb=0.3)
    names = {p: n for n, p in model.named_parameters()}
    events = []
    for p in model.parameters():  # runs when autograd has computed this parameter's gradient
        p.register_hook(lambda g, n=names[p]: events.append(f"grad {n}"))

    def counting_hook(state, bucket):  # DDP calls it when every gradient in a bucket is ready
        params = ",".join(names[p] for p in bucket.parameters())
        events.append(f"  bucket {bucket.index()} all_reduce [{params}] {bucket.buffer().numel() * bucket.buffer().element_size()} bytes")
        return allreduce_hook(state, bucket)  # divide by world size, then all_reduce; its docstring: same result as no hook

    ddp.register_comm_hook(None, counting_hook)
    if rank == 0:
        print("bucket_sizes at construction:", ddp._get_ddp_logging_data()["bucket_sizes"])
    for step in (1, 2):
        events.clear()
        ddp(torch.randn(8, 256)).sum().backward()
        if rank == 0:
            print(f"step {step} backward:")
            print("\n".join(events))
    del ddp  # drop DDP and its reducer before the group goes: a workaround for a rare hang seen at exit
    dist.barrier()  # every rank done before the group is torn down
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
