import os
import warnings

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn


def worker(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    warnings.filterwarnings("ignore", message="DTensor random operators")
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard

    mesh = init_device_mesh("cpu", (world_size,))
    with torch.device("meta"):
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 4))
    for layer in model:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    w = model[0].weight
    if rank == 0:
        print("after fully_shard:", type(w).__name__, w.device, "global", tuple(w.shape),
              "local", tuple(w.to_local().shape))
    model.to_empty(device="cpu")  # allocates only this rank's shard
    torch.manual_seed(0)
    for layer in model:
        layer.reset_parameters()
    w = model[0].weight
    if rank == 0:
        print("after to_empty:", type(w).__name__, w.device, "global", tuple(w.shape),
              "local", tuple(w.to_local().shape),
              "local bytes", w.to_local().untyped_storage().nbytes())
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, args=(2,), nprocs=2)
