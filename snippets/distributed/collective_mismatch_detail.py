#| devices: cpu
"""The same disagreements under TORCH_DISTRIBUTED_DEBUG=DETAIL: each collective is checked first."""
import datetime
import os
import re

# Both are read when torch is imported, so set them first (the forked ranks inherit
# this process's torch, imported below).
os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"  # keep timestamped C++ log lines out of the output
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

TIMEOUTS = {0: datetime.timedelta(seconds=3), 1: datetime.timedelta(seconds=10)}
SCENARIOS = ["rank 0 all_reduce, rank 1 broadcast",
             "all_reduce of shape [4] on rank 0, [5] on rank 1",
             "rank 1 skips the all_reduce"]


def scenario(rank, name, group):
    if name == "rank 0 all_reduce, rank 1 broadcast":
        t = torch.ones(4)
        if rank == 0:
            dist.all_reduce(t, group=group)
        else:
            dist.broadcast(t, src=0, group=group)
    elif name == "all_reduce of shape [4] on rank 0, [5] on rank 1":
        dist.all_reduce(torch.ones(4 + rank), group=group)
    elif name == "rank 1 skips the all_reduce":
        if rank == 0:
            dist.all_reduce(torch.ones(4), group=group)


def short(message):
    """Keep op type, shape and dtype of each fingerprint; drop the long TensorOptions dump."""
    return re.sub(r", TensorDeviceTypes=TensorOptions\(.*?\(nullopt\)\)", "", message)


def worker(rank, world, results, all_done):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    for name in SCENARIOS:
        group = dist.new_group(timeout=TIMEOUTS[rank])  # a fresh (checked) group for each scenario
        try:
            scenario(rank, name, group)
            outcome = "returned"
        except RuntimeError as e:
            outcome = "RuntimeError: " + short(str(e)).strip()
        results.put((name, rank, outcome))
        all_done.wait()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). "spawn" (here and in the context) works too, but every rank
    # imports torch again.
    ctx = mp.get_context("fork")
    results, all_done = ctx.Queue(), ctx.Barrier(2)
    mp.start_processes(worker, args=(2, results, all_done), nprocs=2, start_method="fork")
    outcomes = [results.get() for _ in range(2 * len(SCENARIOS))]
    for name in SCENARIOS:
        print(f"== {name}")
        for _, rank, outcome in sorted(o for o in outcomes if o[0] == name):
            print(f"rank {rank}: {outcome}")
