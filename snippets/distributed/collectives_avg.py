#| devices: cpu
"""ReduceOp.AVG on 2 gloo ranks, against what the ReduceOp docstring says."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    x = torch.arange(1.0, 5.0) + 10 * rank  # rank 0: [1, 2, 3, 4], rank 1: [11, 12, 13, 14]
    t = x.clone()
    dist.all_reduce(t, op=dist.ReduceOp.AVG)  # in place: every rank gets the mean
    shard = torch.empty(2)
    dist.reduce_scatter_single(shard, x, op=dist.ReduceOp.AVG)  # mean, then rank r keeps chunk r
    ints = torch.arange(1, 5) + 10 * rank  # int64
    try:
        dist.all_reduce(ints, op=dist.ReduceOp.AVG)
        int_outcome = f"returned {ints.tolist()}"
    except RuntimeError as e:
        int_outcome = f"RuntimeError: {e}"
    rows = [None] * world_size
    dist.all_gather_object(rows, (t.tolist(), shard.tolist(), int_outcome))
    if rank == 0:
        for name, i in (("all_reduce(AVG), float32", 0), ("reduce_scatter_single(AVG), float32", 1),
                        ("all_reduce(AVG), int64", 2)):
            print(name)
            for r, row in enumerate(rows):
                print(f"  rank {r}: {row[i]}")
        doc = " ".join(dist.ReduceOp.__doc__.split())
        print("ReduceOp docstring:", doc[doc.index("``AVG`` is only"):].split(". ")[0] + ".")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). mp.spawn(...) works too, but every rank imports torch again.
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
