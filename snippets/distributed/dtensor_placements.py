#| devices: cpu
"""DTensor on a 2x2 DeviceMesh of 4 gloo ranks: what each rank holds for each placement."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    # 4 ranks as a 2x2 grid: mesh dim 0 is "dp" (the rows), mesh dim 1 is "tp" (the columns).
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    dp, tp = mesh.get_coordinate()
    lines = [f"mesh {mesh.mesh.tolist()}, this rank at dp={dp} tp={tp}, "
             f"dp group {dist.get_process_group_ranks(mesh.get_group('dp'))}, "
             f"tp group {dist.get_process_group_ranks(mesh.get_group('tp'))}"]
    full = torch.arange(16).reshape(4, 4)  # the global tensor, the same on every rank
    # One placement per mesh dim: placements[0] says what happens across dp, [1] across tp.
    for placements in [(Replicate(), Replicate()),
                       (Shard(0), Replicate()),
                       (Replicate(), Shard(0)),
                       (Shard(0), Shard(1)),
                       (Shard(0), Shard(0))]:
        d = distribute_tensor(full, mesh, placements)
        name = "(" + ", ".join(map(str, placements)) + ")"
        lines.append(f"{name:<32} global {tuple(d.shape)} local {d.to_local().tolist()}")
    # distribute_tensor communicates: by default rank 0 of each mesh dim is the source of the data.
    for kwargs in ({}, {"src_data_rank": None}):
        mine = torch.full((2, 2), rank)  # a different input on every rank
        comm = CommDebugMode()
        with comm:
            d = distribute_tensor(mine, mesh, (Replicate(), Replicate()), **kwargs)
        sent = {str(op).split(".")[-1]: n for op, n in comm.get_comm_counts().items()} or "none"
        lines.append(f"full((2, 2), rank) as (R, R), src_data_rank={kwargs.get('src_data_rank', 0)}: "
                     f"local values {d.to_local().unique().tolist()}, collectives {sent}")
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
