#| devices: cpu
#| timeout: 60
import contextlib
import copy
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP

MICRO_STEPS = 4


def accumulate(ddp, batches, mode):
    """One optimizer step's worth of gradient from MICRO_STEPS micro-batches."""
    ddp.zero_grad()
    before_last = None
    for i, (x, y) in enumerate(batches):
        last = i == len(batches) - 1
        if last:  # what .grad holds after all but the last micro-step
            before_last = torch.cat([p.grad.flatten() for p in ddp.parameters()])
        skip_sync = ddp.no_sync() if not last else contextlib.nullcontext()
        if mode == "no_sync around forward and backward":
            with skip_sync:
                loss = torch.nn.functional.mse_loss(ddp(x), y) / MICRO_STEPS
                loss.backward()
        elif mode == "no_sync around backward only":
            loss = torch.nn.functional.mse_loss(ddp(x), y) / MICRO_STEPS
            with skip_sync:
                loss.backward()
        else:  # "plain loop"
            loss = torch.nn.functional.mse_loss(ddp(x), y) / MICRO_STEPS
            loss.backward()
    return torch.cat([p.grad.flatten() for p in ddp.parameters()]), before_last


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    ddp = DDP(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1)))
    calls = []

    def counting_hook(state, bucket):
        calls.append(bucket.index())
        return allreduce_hook(state, bucket)

    ddp.register_comm_hook(None, counting_hook)
    torch.manual_seed(100 + rank)  # each rank its own micro-batches
    batches = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(MICRO_STEPS)]
    ddp(batches[0][0]).sum().backward()  # a warm-up step, so the buckets are rebuilt first
    results = {}
    for mode in ("plain loop", "no_sync around forward and backward", "no_sync around backward only"):
        calls.clear()
        grad, before_last = accumulate(ddp, batches, mode)
        results[mode] = (len(calls), grad, before_last)
    gathered = [None] * world_size
    dist.all_gather_object(gathered, (batches, results))
    if rank == 0:
        reference = results["plain loop"][1]
        # the same loss on one process: every rank's micro-batches as one batch of 32
        single = copy.deepcopy(ddp.module)
        single.zero_grad()
        x = torch.cat([x for b, _ in gathered for x, _ in b])
        y = torch.cat([y for b, _ in gathered for _, y in b])
        torch.nn.functional.mse_loss(single(x), y).backward()
        full = torch.cat([p.grad.flatten() for p in single.parameters()])
        print(f"{MICRO_STEPS} micro-steps per optimizer step, {world_size} ranks")
        for mode, (n_calls, grad, before_last) in results.items():
            same_on_ranks = all(torch.equal(r[mode][1], grad) for _, r in gathered)
            same_before_last = all(torch.equal(r[mode][2], before_last) for _, r in gathered)
            print(f"{mode}:")
            print(f"  all_reduce calls on rank 0: {n_calls}")
            print(f"  before the last micro-step, gradient equal on every rank: {same_before_last}")
            print(f"  after the last micro-step, gradient equal on every rank: {same_on_ranks}")
            print(f"  allclose to the plain loop: {torch.allclose(grad, reference)}")
        print("one batch of 32 on one process, allclose to the plain loop:", torch.allclose(full, reference))
    del ddp  # drop DDP and its reducer before the group goes: a workaround for a rare hang seen at exit
    dist.barrier()  # every rank done before the group is torn down
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
