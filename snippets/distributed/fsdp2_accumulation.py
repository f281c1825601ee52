#| devices: cpu
#| timeout: 60
"""FSDP2 gradient accumulation on 2 gloo ranks: what set_requires_gradient_sync(False) skips."""
import os
from collections import Counter

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import fully_shard

MICRO_STEPS = 4
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


def held(model):
    """Gradient elements this rank holds, and the state of the layers' parameters.

    Reads FSDP2's private FSDPParam objects: the sharded parameter (a DTensor, what the
    optimizer sees) and the unsharded one that forward and backward use.
    """
    sharded = full_size = 0
    states = set()
    for layer in (model[0], model[2]):
        for fp in layer._get_fsdp_state()._fsdp_param_group.fsdp_params:
            if fp.sharded_param.grad is not None:
                sharded += fp.sharded_param.grad.to_local().numel()
            unsharded = getattr(fp, "_unsharded_param", None)
            if unsharded is not None and unsharded.grad is not None:
                full_size += unsharded.grad.numel()
            states.add(fp.sharded_state.name)
    return sharded, full_size, "/".join(sorted(states))


def accumulate(rank, mode):
    torch.manual_seed(0)  # the same full model on every rank before sharding
    model = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))
    # "params kept unsharded": reshard_after_forward=False, and set_reshard_after_backward(False)
    # until the last micro-step, so the layers keep their all-gathered parameters in between.
    keep = mode == "no sync, params kept unsharded"
    for layer in (model[0], model[2]):
        fully_shard(layer, reshard_after_forward=not keep)
    fully_shard(model)
    torch.manual_seed(100 + rank)  # each rank its own micro-batches
    batches = torch.randn(MICRO_STEPS, 4, 8)
    steps = []
    for i, x in enumerate(batches):
        last = i == MICRO_STEPS - 1
        if mode != "sync every micro-step":
            model.set_requires_gradient_sync(last)  # reduce-scatter only on the last one
        if keep:
            model.set_reshard_after_backward(last)
        CALLS.clear()
        out = model(x)
        forward_ag = CALLS["all_gather"]
        (out.sum() / MICRO_STEPS).backward()
        comms = (f"all_gather forward {forward_ag}, backward {CALLS['all_gather'] - forward_ag}, "
                 f"reduce_scatter {CALLS['reduce_scatter']}")
        steps.append((comms, *held(model)))
    grad = torch.cat([p.grad.full_tensor().flatten() for p in model.parameters()])
    full = sum(p.numel() for p in model.parameters())  # a DTensor's numel is the global one
    return steps, grad, full


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    modes = ["sync every micro-step", "set_requires_gradient_sync(False)",
             "no sync, params kept unsharded"]
    results = {mode: accumulate(rank, mode) for mode in modes}
    gathered = [None] * world
    dist.all_gather_object(gathered, {m: steps for m, (steps, _, _) in results.items()})
    if rank == 0:
        print(f"full model: {results[modes[0]][2]} parameter elements in 2 fully_shard layers; "
              "per micro-step, gradient elements held after backward on (rank 0, rank 1)")
        reference = results["sync every micro-step"][1]
        for mode in modes:
            print(f"== {mode}")
            per_rank = [g[mode] for g in gathered]
            for i, steps in enumerate(zip(*per_rank)):
                comms = steps[0][0]
                assert all(s[0] == comms for s in steps)  # the same calls on every rank
                sharded = tuple(s[1] for s in steps)
                full_size = tuple(s[2] for s in steps)
                params = "/".join(sorted({s[3] for s in steps}))
                print(f"micro-step {i}: {comms}; grads sharded {sharded}, "
                      f"full-size {full_size}; params {params}")
            same = torch.allclose(results[mode][1], reference, atol=1e-6)
            print(f"final gradient allclose to syncing every micro-step: {same}")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). mp.spawn(...) works too, but every rank imports torch again.
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
