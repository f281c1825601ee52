#| devices: cpu
#| timeout: 120
"""gloo on CPU: one of two ranks never calls init_process_group. What the other one sees, and
when, with timeout=3 s (the default would make it wait 30 minutes)."""
import datetime
import os
import re
import time

os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"  # keep timestamped C++ log lines out of the output
import torch.distributed as dist
import torch.multiprocessing as mp


def when(seconds):  # coarse, so that the record does not depend on the machine's speed
    return "under 3 s" if seconds < 3 else "3 to 10 s" if seconds < 10 else "10 s or more"


def worker(rank, world, absent, results):
    if rank == absent:  # this rank never joins (a crashed or stuck launcher, a wrong address)
        return
    start = time.monotonic()
    try:
        dist.init_process_group("gloo", rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=3))
        outcome = "joined"
    except Exception as e:
        message = re.sub(r", \d+\)", ", <port>)", str(e))  # MASTER_PORT, set by whoever runs it
        message = re.sub(r"after \d+ seconds", "after <n> seconds", message)  # elapsed, timing
        outcome = f"{type(e).__module__}.{type(e).__name__}: {message}"
    results.put(f"{outcome} ({when(time.monotonic() - start)} after the call)")


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    ctx = mp.get_context("fork")
    for absent in (1, 0):  # rank 0 hosts the TCPStore that every rank connects to first
        results = ctx.Queue()
        mp.start_processes(worker, args=(2, absent, results), nprocs=2, start_method="fork")
        print(f"== rank {absent} never joins; rank {1 - absent}: {results.get()}")
