#| devices: cpu
#| timeout: 60
"""FSDP1 on 2 gloo ranks: torch.nn.utils.clip_grad_norm_ against the wrapper's own clip_grad_norm_."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def fsdp1_model(rank):
    torch.manual_seed(0)  # the same model and batch as gradient_clipping_across_shards.py
    model = FSDP(nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3)),
                 device_id=torch.device("cpu"))
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(8, 8, generator=g), torch.randn(8, 3, generator=g)
    nn.functional.mse_loss(model(x.chunk(2)[rank]), y.chunk(2)[rank]).backward()
    return model


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = fsdp1_model(rank)
    grad = next(model.parameters()).grad
    generic = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    own = fsdp1_model(rank).clip_grad_norm_(1.0)
    lines = [f"gradient: {type(grad).__name__} {tuple(grad.shape)}",
             f"torch.nn.utils.clip_grad_norm_: {generic.item():.4f}",
             f"model.clip_grad_norm_:          {own.item():.4f}"]
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
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
