#| devices: cpu
"""A matmul of DTensors sharded on the contracted dim gives Partial: 4 gloo ranks, 2x2 mesh."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode


def counts(comm):
    return {str(op).split(".")[-1]: n for op, n in comm.get_comm_counts().items()} or "none"


def short(placements):
    return "(" + ", ".join(map(str, placements)) + ")"


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    torch.manual_seed(0)  # the same x and w on every rank
    x = torch.randn(4, 6)  # batch 4, features 6
    w = torch.randn(6, 2)
    # dp shards the batch (rows of x); tp shards the contracted dim (cols of x, rows of w).
    X = distribute_tensor(x, mesh, (Shard(0), Shard(1)))
    W = distribute_tensor(w, mesh, (Replicate(), Shard(0)))
    comm = CommDebugMode()
    with comm:
        Y = X @ W
    lines = [f"X {short(X.placements)} local {tuple(X.to_local().shape)}, "
             f"W {short(W.placements)} local {tuple(W.to_local().shape)}",
             f"Y = X @ W: {short(Y.placements)} global {tuple(Y.shape)} "
             f"local {tuple(Y.to_local().shape)}, collectives: {counts(comm)}",
             f"Y local [0] = {[round(v, 4) for v in Y.to_local()[0].tolist()]}"]
    # The pending sum over tp, by hand: add the two tp ranks' local results.
    summed = Y.to_local().clone()
    dist.all_reduce(summed, group=mesh.get_group("tp"))
    rows = x[2 * mesh.get_local_rank("dp"):][:2]  # this dp rank's batch rows
    lines.append(f"sum of Y's locals over the tp group matches x @ w rows: "
                 f"{torch.allclose(summed, rows @ w, atol=1e-6)}")
    for target in [(Shard(0), Replicate()), (Shard(0), Shard(1))]:
        comm = CommDebugMode()
        with comm:
            Z = Y.redistribute(mesh, target)
        lines.append(f"Y -> {short(target)}: collectives {counts(comm)}, "
                     f"local {tuple(Z.to_local().shape)}")
    comm = CommDebugMode()
    with comm:
        full = Y.full_tensor()
    lines.append(f"Y.full_tensor(): collectives {counts(comm)}, "
                 f"close to x @ w: {torch.allclose(full, x @ w, atol=1e-6)}")
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        for r, rank_lines in enumerate(gathered):
            print(f"--- rank {r}")
            print("\n".join(rank_lines))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). mp.spawn(...) works too, but every rank imports torch again.
    mp.start_processes(worker, args=(4,), nprocs=4, start_method="fork")
