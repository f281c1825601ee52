#| devices: cpu
#| timeout: 60
"""clip_grad_norm_ on FSDP2 (2 gloo ranks) against one process, and a naive per-rank norm."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import fully_shard

MAX_NORM = 1.0


def build():
    torch.manual_seed(0)  # the same full model everywhere
    return nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))


def batch():
    g = torch.Generator().manual_seed(1)
    return torch.randn(8, 8, generator=g), torch.randn(8, 3, generator=g)


def grads_of(model):
    """Every gradient, whole (a DTensor's is gathered), keyed by parameter name."""
    return {k: (p.grad.full_tensor() if hasattr(p.grad, "full_tensor") else p.grad)
            for k, p in model.named_parameters()}


def max_diff(a, b):
    return max((a[k] - b[k]).abs().max().item() for k in a)


def single_process(max_norm, norm_type=2.0):
    model = build()
    x, y = batch()
    nn.functional.mse_loss(model(x), y).backward()  # the whole batch of 8
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm, norm_type=norm_type)
    return norm, grads_of(model)


def fsdp_model(rank):
    model = build()
    fully_shard(model[0])
    fully_shard(model[2])
    fully_shard(model)
    x, y = batch()
    # Each rank takes half the batch; FSDP2 averages the gradients over the 2 ranks.
    nn.functional.mse_loss(model(x.chunk(2)[rank]), y.chunk(2)[rank]).backward()
    return model


def worker(rank, world, ref_grads, ref_inf_grads):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    lines = []

    model = fsdp_model(rank)
    g = model[0].weight.grad
    one = torch.linalg.vector_norm(g)
    lines.append(f"0.weight.grad: {type(g).__name__} local {tuple(g.to_local().shape)}, "
                 f"its norm: {type(one).__name__} {one.placements}")
    norm = nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
    lines.append(f"clip_grad_norm_ returned {type(norm).__name__} {norm.placements} "
                 f"{norm.full_tensor().item():.4f}")
    clipped = grads_of(model)
    lines.append(f"clipped 0.weight.grad[0, :3]: "
                 f"{[round(v, 4) for v in clipped['0.weight'][0, :3].tolist()]}")
    lines.append(f"clipped grads match one process: "
                 f"{max_diff(clipped, ref_grads) < 1e-6}")

    # The infinity norm: the total comes back as a partial DTensor (max still pending).
    model = fsdp_model(rank)
    norm = nn.utils.clip_grad_norm_(model.parameters(), 0.01, norm_type=float("inf"))
    lines.append(f"norm_type=inf returned {norm.placements}, value {norm.full_tensor().item():.4f}, "
                 f"clipped to 0.01, grads match one process: "
                 f"{max_diff(grads_of(model), ref_inf_grads) < 1e-6}")

    # Naive: the norm of the local shards only, then the same clip formula.
    model = fsdp_model(rank)
    local = [p.grad.to_local() for p in model.parameters()]
    local_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(t) for t in local]))
    # By hand, correctly: sum the squares over ranks, then take the root.
    squares = local_norm ** 2
    dist.all_reduce(squares)  # SUM by default
    lines.append(f"sqrt(all_reduce(local norm ** 2)) = {squares.sqrt().item():.4f}")
    coef = min(MAX_NORM / (local_norm.item() + 1e-6), 1.0)
    for t in local:
        t.mul_(coef)
    naive = grads_of(model)
    lines.append(f"naive local norm {local_norm.item():.4f}, clip coefficient {coef:.4f}, "
                 f"max |grad - one process| {max_diff(naive, ref_grads):.4f}")

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
    ref_norm, ref_grads = single_process(MAX_NORM)
    inf_norm, ref_inf_grads = single_process(0.01, norm_type=float("inf"))
    print(f"one process: clip_grad_norm_ returned {ref_norm.item():.4f}, "
          f"clip coefficient {MAX_NORM / (ref_norm.item() + 1e-6):.4f}")
    print(f"one process, clipped 0.weight.grad[0, :3]: "
          f"{[round(v, 4) for v in ref_grads['0.weight'][0, :3].tolist()]}")
    print(f"one process, norm_type=inf: clip_grad_norm_ returned {inf_norm.item():.4f}")
    mp.start_processes(worker, args=(2, ref_grads, ref_inf_grads), nprocs=2, start_method="fork")
