#| devices: cpu
#| timeout: 120
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD, SLOW_RANK, STEPS = 3, 2, 3


def worker(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    grad = torch.ones(1000)
    dist.barrier()                        # start the clocks together
    times = torch.zeros(3)                # compute, wait in all_reduce, whole step
    for _ in range(STEPS):
        t0 = time.perf_counter()
        time.sleep(0.5 if rank == SLOW_RANK else 0.1)   # the "forward and backward"
        t1 = time.perf_counter()
        dist.all_reduce(grad)             # the gradient sync every rank must join
        t2 = time.perf_counter()
        times += torch.tensor([t1 - t0, t2 - t1, t2 - t0]) / STEPS
    table = [torch.zeros(3) for _ in range(WORLD)]
    dist.all_gather(table, times)         # every rank's mean times, to every rank
    if rank == 0:
        print("rank  compute  all_reduce  step   (seconds, mean of 3 steps, rounded to 0.1)")
        for r, (c, w, s) in enumerate(table):
            print(f"{r:>4}  {c:7.1f}  {w:10.1f}  {s:4.1f}")
        compute = torch.stack(table)[:, 0]
        step = torch.stack(table)[:, 2]
        print("step times differ by under 0.05 s:", (step.max() - step.min()).item() < 0.05)
        print("slowest rank by compute time:", compute.argmax().item())
        print("rank that waits least in all_reduce:", torch.stack(table)[:, 1].argmin().item())
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.start_processes(worker, nprocs=WORLD, start_method="fork")
