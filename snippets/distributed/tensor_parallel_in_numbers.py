#| devices: cpu
"""Tensor parallelism on 2 gloo ranks: the collectives of one MLP block, forward and backward."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


class Block(nn.Module):  # norm, then an MLP that widens 8 -> 32 -> 8 (or another width)
    def __init__(self, width=32):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.up = nn.Linear(8, width)
        self.down = nn.Linear(width, 8)

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


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (world,))
    torch.manual_seed(0)
    reference = Block()  # the single-process model
    model = Block()
    model.load_state_dict(reference.state_dict())
    parallelize_module(model, mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})

    torch.manual_seed(1)
    x = torch.randn(2, 4, 8)  # (batch, sequence, hidden), the same on every rank
    xp = x.clone().requires_grad_()  # the block's input needs a gradient, as inside a model
    with CommBytes() as fwd:
        y = model(xp)
    with CommBytes() as bwd:
        y.sum().backward()

    xr = x.clone().requires_grad_()
    reference(xr).sum().backward()
    ref_grads = dict(reference.named_parameters())
    grads_match = all(
        torch.allclose(p.grad.full_tensor() if isinstance(p.grad, DTensor) else p.grad,
                       ref_grads[name].grad, atol=1e-5)
        for name, p in model.named_parameters())
    lines = [f"forward:  {dict((str(k), v) for k, v in fwd.get_comm_counts().items())}",
             *(f"  {c}" for c in fwd.calls),
             f"backward: {dict((str(k), v) for k, v in bwd.get_comm_counts().items())}",
             *(f"  {c}" for c in bwd.calls),
             f"output matches one process: {torch.allclose(y, reference(x), atol=1e-6)}",
             f"input and weight gradients match: "
             f"{torch.allclose(xp.grad, xr.grad, atol=1e-6) and grads_match}"]
    wide = Block(width=64)  # the same block with an MLP twice as wide: 8 -> 64 -> 8
    parallelize_module(wide, mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})
    xw = x.clone().requires_grad_()
    with CommBytes() as wide_fwd:
        yw = wide(xw)
    with CommBytes() as wide_bwd:
        yw.sum().backward()
    lines.append(f"width 64, forward: {wide_fwd.calls}, backward: {wide_bwd.calls}")
    wide_up_weight = wide.up.weight.full_tensor()  # a collective: every rank calls it
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        print("\n".join(gathered[0]))
        print(f"rank 1 printed the same: {gathered[1] == gathered[0]}")
        w, ww = reference.up.weight, wide_up_weight
        print(f"block input {tuple(x.shape)} float32: {x.numel() * x.element_size()} B; "
              f"up.weight {tuple(w.shape)}: {w.numel() * w.element_size()} B; "
              f"width 64 up.weight {tuple(ww.shape)}: {ww.numel() * ww.element_size()} B")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
