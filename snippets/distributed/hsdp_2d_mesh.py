#| devices: cpu
"""HSDP on 4 gloo ranks: fully_shard with a 2-D mesh shards on one dim, replicates on the other."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from _comm_log import MeshCommLog


def make_model():
    return nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    # Mesh dim 0 replicates, mesh dim 1 shards: in a real job, dim 1 is the GPUs of one node.
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("replicate", "shard"))
    torch.manual_seed(0)
    model = make_model()
    reference = make_model()  # one process, the whole batch: what training must match
    reference.load_state_dict(model.state_dict())
    for layer in (model[0], model[2], model):  # bottom-up: each layer, then the root
        fully_shard(layer, mesh=mesh)
    w = model[0].weight
    lines = [f"coordinate {mesh.get_coordinate()}, replicate group "
             f"{dist.get_process_group_ranks(mesh.get_group('replicate'))}, shard group "
             f"{dist.get_process_group_ranks(mesh.get_group('shard'))}",
             f"0.weight: {w.placements} global {tuple(w.shape)} local {tuple(w.to_local().shape)}"
             f", local rows sum {w.to_local().sum().item():.4f}"]

    torch.manual_seed(1)
    x, y = torch.randn(8, 8), torch.randn(8, 4)  # the global batch: 2 rows per rank
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1)
    for step in range(3):
        comm = MeshCommLog(mesh)
        with comm:
            mine = slice(2 * rank, 2 * rank + 2)  # every rank is a data-parallel rank
            nn.functional.mse_loss(model(x[mine]), y[mine]).backward()
        opt.step()
        opt.zero_grad()
        nn.functional.mse_loss(reference(x), y).backward()
        ref_opt.step()
        ref_opt.zero_grad()
    lines.append(f"one step's collectives: {comm.summary()}")
    numel = sum(p.numel() for p in model.parameters())
    lines.append(f"elements all-reduced per step: {comm.all_reduce_numel['replicate']} "
                 f"of the model's {numel}")
    trained = {k: v.full_tensor() for k, v in model.state_dict().items()}
    same = all(torch.allclose(trained[k], v, atol=1e-6) for k, v in reference.state_dict().items())
    lines.append(f"after 3 steps, equal to one process on the whole batch: {same}")
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
