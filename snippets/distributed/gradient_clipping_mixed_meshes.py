#| devices: cpu
#| timeout: 60
"""One clip_grad_norm_ call over parameters on two different device meshes (2 gloo ranks),
and the per-mesh fix."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

MAX_NORM = 1.0


def build():
    torch.manual_seed(0)  # the same full model everywhere
    return nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))


def batch():
    g = torch.Generator().manual_seed(1)
    return torch.randn(8, 8, generator=g), torch.randn(8, 3, generator=g)


def sharded_model(rank):
    """Layer 0 on a 1-D mesh of the 2 ranks, layer 2 on a 2-D mesh of the same 2 ranks."""
    mesh_1d = init_device_mesh("cpu", (2,))
    mesh_2d = init_device_mesh("cpu", (1, 2), mesh_dim_names=("replicate", "shard"))
    model = build()
    fully_shard(model[0], mesh=mesh_1d)
    fully_shard(model[2], mesh=mesh_2d)  # a 2-D mesh: HSDP with 1 replica of 2 shards
    x, y = batch()
    nn.functional.mse_loss(model(x.chunk(2)[rank]), y.chunk(2)[rank]).backward()
    return model


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = sharded_model(rank)
    if rank == 0:
        for name, p in model.named_parameters():
            print(f"{name}: mesh {p.device_mesh}, placements {p.placements}")
    try:
        nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
    except RuntimeError as e:
        if rank == 0:
            print(f"clip_grad_norm_ raised {type(e).__name__}: {str(e).splitlines()[0]}")
            print(f"  raised from {type(e.__cause__).__name__}; the message goes on: "
                  f"{str(e).splitlines()[-1].split(' for ')[0]!r}")

    # A plain tensor gradient beside DTensor ones: layer 2 not sharded at all.
    plain = build()
    fully_shard(plain[0])
    plain(torch.randn(4, 8)).sum().backward()
    try:
        nn.utils.clip_grad_norm_(plain.parameters(), MAX_NORM)
    except RuntimeError as e:
        if rank == 0:
            print(f"with a plain tensor too: {type(e).__name__}: {str(e).splitlines()[0]}")

    # The fix: one norm per mesh, made a plain tensor, then combined and applied.
    groups = {}
    for p in model.parameters():
        groups.setdefault(p.device_mesh, []).append(p)
    per_mesh = [nn.utils.get_total_norm([p.grad for p in ps]).full_tensor()
                for ps in groups.values()]
    total = torch.linalg.vector_norm(torch.stack(per_mesh))
    for ps in groups.values():
        nn.utils.clip_grads_with_norm_(ps, MAX_NORM, total)
    first = model[0].weight.grad.full_tensor()[0, :3]
    if rank == 0:
        print(f"per-mesh norms {[round(n.item(), 4) for n in per_mesh]}, "
              f"total {total.item():.4f}")
        print(f"clipped 0.weight.grad[0, :3]: {[round(v, 4) for v in first.tolist()]}")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
