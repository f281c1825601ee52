#| devices: cpu
"""FSDP2 + tensor parallelism on a 2x2 mesh of 4 gloo ranks: TP on one dim, FSDP on the other."""
import logging
import os
import warnings

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

from _comm_log import MeshCommLog


class KeepWarnings(logging.Handler):
    """Keeps DTensor's redistribute warnings, to print them in the output, not on stderr."""

    def __init__(self):
        super().__init__()
        self.kept = []

    def emit(self, record):
        self.kept.append(record.getMessage().split(". This is suboptimal")[0])


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 8)
        self.down = nn.Linear(8, 4)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


def worker(rank, world):
    # FSDP2 warns when a wrapped module returns a view, in case an in-place op follows; none does.
    warnings.filterwarnings("ignore", message="FSDP2-wrapped module .* returned a view tensor")
    # full_tensor() of up.weight warns that it runs two all-gathers in a row: keep the warning.
    kept = KeepWarnings()
    log = logging.getLogger("torch.distributed.tensor._redistribute")
    log.addHandler(kept)
    log.propagate = False
    dist.init_process_group("gloo", rank=rank, world_size=world)
    # Mesh dim 1 ("tp") would be the GPUs of one node, mesh dim 0 ("dp") spans the nodes.
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    torch.manual_seed(0)
    model = MLP()
    reference = MLP()  # one process, the whole batch: what training must match
    reference.load_state_dict(model.state_dict())
    # First TP on the "tp" sub-mesh, then FSDP on the "dp" sub-mesh (each layer, then the root).
    parallelize_module(model, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
    for layer in (model.up, model.down, model):
        fully_shard(layer, mesh=mesh["dp"])
    lines = [f"coordinate {mesh.get_coordinate()}, dp group "
             f"{dist.get_process_group_ranks(mesh.get_group('dp'))}, tp group "
             f"{dist.get_process_group_ranks(mesh.get_group('tp'))}"]
    for name, p in model.named_parameters():
        lines.append(f"{name:<12}{str(p.placements):<46} global {tuple(p.shape)} "
                     f"local {tuple(p.to_local().shape)}")
    local = model.up.weight.to_local()
    rows = [i for i in range(8) if any(torch.equal(reference.up.weight[i], r) for r in local)]
    lines.append(f"up.weight rows held here: {rows}")

    torch.manual_seed(1)
    x, y = torch.randn(4, 8), torch.randn(4, 4)  # the global batch: 2 rows per dp rank
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1)
    mine = slice(2 * mesh.get_local_rank("dp"), 2 * mesh.get_local_rank("dp") + 2)
    for step in range(3):
        comm = MeshCommLog(mesh)
        with comm:  # the tp ranks of one dp rank see the same rows
            nn.functional.mse_loss(model(x[mine]), y[mine]).backward()
        opt.step()
        opt.zero_grad()
        nn.functional.mse_loss(reference(x), y).backward()
        ref_opt.step()
        ref_opt.zero_grad()
    lines.append(f"one step's collectives: {comm.summary()}")
    comm = MeshCommLog(mesh)
    with comm:
        model.up.weight.full_tensor()
    lines.append(f"up.weight.full_tensor(): {comm.summary()}")
    lines += [f"  warning: {w}" for w in kept.kept]
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
