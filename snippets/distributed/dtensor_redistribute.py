#| devices: cpu
"""What redistribute sends on a 2x2 mesh of 4 gloo ranks: the collective and its group."""
import logging
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode


class KeepWarnings(logging.Handler):
    """Keeps DTensor's collective warnings, to print them under their line, not on stderr."""

    def __init__(self):
        super().__init__()
        self.kept = []

    def emit(self, record):
        self.kept.append("  warning: " + record.getMessage())


class GroupNamingCommMode(CommDebugMode):
    """CommDebugMode that also notes which process group each collective ran on."""

    def __init__(self, names):
        super().__init__()
        self.names, self.seen = names, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        group = [a for a in args if isinstance(a, str)]  # a collective's group_name argument
        if getattr(func, "namespace", None) == "_c10d_functional" and group:
            self.seen.append(f"{func._opname} on {self.names.get(group[-1], group[-1])}")
        return super().__torch_dispatch__(func, types, args, kwargs)


def short(placements):
    return "(" + ", ".join(map(str, placements)) + ")"


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    names = {mesh.get_group(d).group_name: f"{d} group" for d in ("dp", "tp")}
    full = torch.arange(16.0).reshape(4, 4)
    lines = []
    log = logging.getLogger("torch.distributed.tensor._collective_utils")
    warnings = KeepWarnings()
    log.addHandler(warnings)
    log.propagate = False
    for src, dst in [((Replicate(), Shard(0)), (Replicate(), Replicate())),
                     ((Replicate(), Replicate()), (Shard(0), Replicate())),
                     ((Shard(0), Shard(1)), (Replicate(), Replicate())),
                     ((Replicate(), Shard(0)), (Replicate(), Shard(1))),
                     ((Shard(0), Replicate()), (Replicate(), Shard(0)))]:
        d = distribute_tensor(full, mesh, src)
        comm = GroupNamingCommMode(names)
        with comm:
            out = d.redistribute(mesh, dst)
        sent = ", ".join(comm.seen) or "no collective"
        lines.append(f"{short(src)} -> {short(dst)}: {sent}; local {tuple(d.to_local().shape)}"
                     f" -> {tuple(out.to_local().shape)}")
        lines += warnings.kept
        warnings.kept.clear()
    try:  # Replicate -> Partial is refused when asked for by hand
        distribute_tensor(full, mesh, (Replicate(), Replicate())).redistribute(
            mesh, (Replicate(), Partial()))
    except RuntimeError as e:
        lines.append(f"(R, R) -> (R, P(sum)): RuntimeError: {e}")
    if rank == 0:  # what rank 0 saw
        print("\n".join(lines))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). mp.spawn(...) works too, but every rank imports torch again.
    mp.start_processes(worker, args=(4,), nprocs=4, start_method="fork")
