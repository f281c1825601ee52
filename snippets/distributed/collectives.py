#| devices: cpu
#| timeout: 60
import os
import warnings

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def show(title, tensor, inp, world_size):
    """Print every rank's result on rank 0, in rank order, with this op's bytes per rank."""
    rows = [None] * world_size
    dist.all_gather_object(rows, tensor.tolist())
    if dist.get_rank() == 0:
        nbytes = lambda t: t.numel() * t.element_size()
        print(f"{title}: input {nbytes(inp)} B, output {nbytes(tensor)} B per rank" if inp is not None else title)
        for r, row in enumerate(rows):
            print(f"  rank {r}: {row}")


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    x = torch.arange(1.0, 5.0) + 10 * rank  # rank 0: [1, 2, 3, 4], rank 1: [11, 12, 13, 14]
    show("input", x, None, world_size)

    t = x.clone()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)  # in place: every rank gets the sum
    show("all_reduce(SUM)", t, x, world_size)

    gathered = torch.empty(4 * world_size)
    dist.all_gather_single(gathered, x)  # every rank gets every rank's tensor, concatenated
    show("all_gather_single", gathered, x, world_size)

    shard = torch.empty(4 // world_size)
    dist.reduce_scatter_single(shard, x, op=dist.ReduceOp.SUM)  # sum, then rank r keeps chunk r
    show("reduce_scatter_single(SUM)", shard, x, world_size)

    b = x.clone()
    dist.broadcast(b, src=0)  # in place: every rank gets rank 0's tensor
    show("broadcast(src=0)", b, x, world_size)

    full = torch.empty(4)
    dist.all_gather_single(full, shard)  # reduce_scatter then all_gather
    same = [None] * world_size
    dist.all_gather_object(same, torch.equal(full, t))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist.reduce_scatter_tensor(torch.empty(2), x)  # the older name
    if rank == 0:
        print("all_gather(reduce_scatter(x)) == all_reduce(x) on every rank:", all(same))
        print("reduce_scatter_tensor:", caught[0].category.__name__, caught[0].message)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
