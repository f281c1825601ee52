#| devices: cpu
"""Sequence parallelism on 2 gloo ranks: the same block, the norm sharded on the sequence."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import (ColwiseParallel, RowwiseParallel, SequenceParallel,
                                               parallelize_module)


class Block(nn.Module):  # norm, then an MLP that widens 8 -> 32 -> 8
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.up = nn.Linear(8, 32)
        self.down = nn.Linear(32, 8)

    def forward(self, x):
        return self.down(torch.relu(self.up(self.norm(x))))


class CommBytes(CommDebugMode):
    """CommDebugMode, plus the size of the tensor each counted collective takes and returns."""
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        before = dict(self.comm_counts)
        out = super().__torch_dispatch__(func, types, args, kwargs)
        for op, n in self.comm_counts.items():
            if n != before.get(op, 0):  # this call was a collective
                t = args[0]
                self.calls.append(f"{op}: in {tuple(t.shape)} {t.numel() * t.element_size()} B, "
                                  f"out {tuple(out.shape)} {out.numel() * out.element_size()} B")
        return out


def counts(mode):
    return {str(k): v for k, v in mode.get_comm_counts().items()}


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (world,))
    torch.manual_seed(0)
    reference = Block()  # the single-process model
    model = Block()
    model.load_state_dict(reference.state_dict())
    parallelize_module(model, mesh, {
        "norm": SequenceParallel(),                         # input and output sharded on dim 1
        "up": ColwiseParallel(input_layouts=Shard(1)),      # gathers the sequence first
        "down": RowwiseParallel(output_layouts=Shard(1)),   # returns a sequence shard
    })

    torch.manual_seed(1)
    x = torch.randn(2, 4, 8)  # (batch, sequence, hidden)
    xp = x.chunk(world, dim=1)[rank].clone().requires_grad_()  # this rank's half of the tokens
    with CommBytes() as fwd:
        y = model(xp)
    with CommBytes() as bwd:
        y.sum().backward()
    norm_grad = model.norm.weight.grad.placements
    with CommDebugMode() as later:  # reading the norm's gradients in full
        norm_grads = [p.grad.full_tensor() for p in model.norm.parameters()]

    xr = x.clone().requires_grad_()
    y_ref = reference(xr)
    y_ref.sum().backward()
    ref_grads = dict(reference.named_parameters())
    grads_match = all(
        torch.allclose(p.grad.full_tensor(), ref_grads[name].grad, atol=1e-5)
        for name, p in model.named_parameters())
    lines = [f"input on this rank {tuple(xp.shape)}, output on this rank {tuple(y.shape)}",
             f"forward:  {counts(fwd)}",
             *(f"  {c}" for c in fwd.calls),
             f"backward: {counts(bwd)}",
             *(f"  {c}" for c in bwd.calls),
             f"norm.weight.grad placements after backward: {norm_grad}",
             f"reading both norm gradients in full: {counts(later)}",
             f"output matches one process: "
             f"{torch.allclose(y, y_ref.chunk(world, dim=1)[rank], atol=1e-6)}",
             f"input and weight gradients match: "
             f"{torch.allclose(xp.grad, xr.grad.chunk(world, dim=1)[rank], atol=1e-6) and grads_match}"]
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        print("\n".join(gathered[0]))
        print(f"rank 1 printed the same: {gathered[1] == gathered[0]}")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
