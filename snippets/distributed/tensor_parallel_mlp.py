#| devices: cpu
"""Tensor parallelism on 2 gloo ranks: a 2-layer MLP split column-wise, then row-wise."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 8)
        self.down = nn.Linear(8, 4)

    def forward(self, x):
        self.hidden = torch.relu(self.up(x))  # kept to show its shape on each rank
        return self.down(self.hidden)


def local(t):
    return f"{tuple(t.to_local().shape)} {t.placements}"


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (world,))
    torch.manual_seed(0)
    reference = MLP()  # the unsharded model, the same on every rank
    model = MLP()
    model.load_state_dict(reference.state_dict())
    parallelize_module(model, mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})

    torch.manual_seed(1)
    x = torch.randn(3, 4)  # the same input on every rank
    comm = CommDebugMode()
    with comm:
        y = model(x)
    counts = {str(op): n for op, n in comm.get_comm_counts().items()}
    lines = [f"up.weight   {local(model.up.weight)}   (full (8, 4))",
             f"up.bias     {local(model.up.bias)}",
             f"down.weight {local(model.down.weight)}   (full (4, 8))",
             f"down.bias   {local(model.down.bias)}",
             f"hidden activation on this rank: {tuple(model.hidden.shape)} (full (3, 8))",
             f"output: {tuple(y.shape)}, collectives in forward: {counts}",
             f"output close to the unsharded MLP: {torch.allclose(y, reference(x), atol=1e-6)}"]
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
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
