#| devices: cpu
"""The same disagreements under TORCH_DISTRIBUTED_DEBUG=DETAIL: each collective is checked first."""
import datetime
import os
import re

# Both are read when torch is imported, so set them first (the spawned ranks inherit them).
os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"  # keep timestamped C++ log lines out of the output
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

TIMEOUTS = {0: datetime.timedelta(seconds=3), 1: datetime.timedelta(seconds=10)}


def scenario(rank, name):
    if name == "rank 0 all_reduce, rank 1 broadcast":
        t = torch.ones(4)
        if rank == 0:
            dist.all_reduce(t)
        else:
            dist.broadcast(t, src=0)
    elif name == "all_reduce of shape [4] on rank 0, [5] on rank 1":
        dist.all_reduce(torch.ones(4 + rank))
    elif name == "rank 1 skips the all_reduce":
        if rank == 0:
            dist.all_reduce(torch.ones(4))


def short(message):
    """Keep op type, shape and dtype of each fingerprint; drop the long TensorOptions dump."""
    return re.sub(r", TensorDeviceTypes=TensorOptions\(.*?\(nullopt\)\)", "", message)


def worker(rank, world, name, results, all_done):
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=TIMEOUTS[rank])
    try:
        scenario(rank, name)
        outcome = "returned"
    except RuntimeError as e:
        outcome = "RuntimeError: " + short(str(e)).strip()
    results.put((rank, outcome))
    all_done.wait()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    ctx = mp.get_context("spawn")
    for name in ["rank 0 all_reduce, rank 1 broadcast",
                 "all_reduce of shape [4] on rank 0, [5] on rank 1",
                 "rank 1 skips the all_reduce"]:
        print(f"== {name}", flush=True)
        results, all_done = ctx.Queue(), ctx.Barrier(2)
        mp.spawn(worker, args=(2, name, results, all_done), nprocs=2)
        for rank, outcome in sorted(results.get() for _ in range(2)):
            print(f"rank {rank}: {outcome}", flush=True)
