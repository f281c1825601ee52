#| devices: cpu
"""FSDP2 on 2 gloo ranks: what each rank holds, and when a layer's weight is whole."""
import os
from collections import Counter

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

CALLS = Counter()


def counted(name, fn):
    """Wrap a collective so the snippet can count how often FSDP2 calls it."""
    def wrapper(*args, **kwargs):
        CALLS[name] += 1
        return fn(*args, **kwargs)
    return wrapper


# FSDP2 calls these two through the torch.distributed module (_fsdp_collectives.py).
dist.all_gather_single = counted("all_gather", dist.all_gather_single)
dist.reduce_scatter_single = counted("reduce_scatter", dist.reduce_scatter_single)


class Probe(nn.Linear):
    """A Linear that notes what its weight is while its forward runs."""

    def forward(self, x):
        w = self.weight
        self.seen = f"{type(w).__name__} {tuple(w.shape)} {w.dtype}"
        return super().forward(x)


def show(t):
    return (f"{type(t).__name__} global {tuple(t.shape)} local {tuple(t.to_local().shape)} "
            f"{t.dtype} {t.placements}")


def numel(tensors):
    return sum(t.numel() for t in tensors)


def nbytes(tensors):
    return sum(t.numel() * t.element_size() for t in tensors)


def phase(name):
    line = f"{name}: all_gather {CALLS['all_gather']}, reduce_scatter {CALLS['reduce_scatter']}"
    CALLS.clear()
    return line


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)  # the same full model on every rank before sharding
    model = nn.Sequential(Probe(8, 6), nn.ReLU(), Probe(6, 3))
    original = model[0].weight  # what an optimizer built now would hold
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    fully_shard(model[0], mp_policy=policy)  # bottom-up: one group per layer,
    fully_shard(model[2], mp_policy=policy)
    fully_shard(model, mp_policy=policy)     # then the root
    lines = [f"module class: {type(model).__name__}",
             f"0.weight is the original Parameter: {model[0].weight is original}",
             "0.weight at rest:       " + show(model[0].weight),
             "2.weight at rest:       " + show(model[2].weight),
             "2.weight local storage: "
             f"{model[2].weight.to_local().untyped_storage().nbytes()} bytes"]
    CALLS.clear()
    out = model(torch.randn(4, 8))
    lines += ["0.weight in forward:    " + model[0].seen,
              "0.weight after forward: " + type(model[0].weight).__name__,
              phase("forward collectives")]
    out.float().sum().backward()
    lines += [phase("backward collectives"),
              "0.weight.grad:          " + show(model[0].weight.grad)]
    opt = torch.optim.Adam(model.parameters())
    opt.step()
    lines.append("Adam exp_avg of 0.weight: " + show(opt.state[model[0].weight]["exp_avg"]))
    params = [p.to_local() for p in model.parameters()]
    grads = [p.grad.to_local() for p in model.parameters()]
    moments = [s[k].to_local() for s in opt.state.values() for k in ("exp_avg", "exp_avg_sq")]
    full = sum(p.numel() for p in model.parameters())
    lines.append(f"numel: full model {full}, parameter shards here {numel(params)}, "
                 f"gradient shards {numel(grads)}, Adam moments {numel(moments)}")
    lines.append(f"bytes of values here: parameters {nbytes(params)}, gradients {nbytes(grads)}, "
                 f"Adam moments {nbytes(moments)}")
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
