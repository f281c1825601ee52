#| devices: cpu
#| timeout: 180
"""One SGD step on 4 gloo ranks under DDP, ZeRO-1, ZeRO-2 and FSDP2: the collectives each
calls (logged by wrapping them), the ring formula for those calls, and the bytes each rank
really wrote (Linux's /proc/self/io "wchar", as in communication_cost.py)."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.distributed.fsdp import fully_shard
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD = 4
LOG = []  # (collective, phase, bytes of the full tensor S) for every call on this rank
PHASE = ["forward"]


def logged(name, fn, size):
    def wrapper(*args, **kwargs):
        LOG.append((name, PHASE[0], size(*args, **kwargs)))
        return fn(*args, **kwargs)
    return wrapper


def nbytes(position, keyword):
    """The size of the argument given at this position or by this keyword, in bytes."""
    def size(*args, **kwargs):
        t = kwargs[keyword] if keyword in kwargs else args[position]
        return t.numel() * t.element_size()
    return size


# DDP's comm hook, ZeroRedundancyOptimizer and FSDP2 call these through the dist module.
dist.all_reduce = logged("all_reduce", dist.all_reduce, nbytes(0, "tensor"))
dist.broadcast = logged("broadcast", dist.broadcast, nbytes(0, "tensor"))
dist.all_gather_single = logged("all_gather", dist.all_gather_single, nbytes(0, "output_tensor"))
dist.reduce_scatter_single = logged("reduce_scatter", dist.reduce_scatter_single, nbytes(1, "input"))


def written():
    fields = dict(line.split(": ") for line in open("/proc/self/io").read().splitlines())
    return int(fields["wchar"])


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(*[nn.Linear(256, 256, bias=False) for _ in range(4)])  # 1 MiB of fp32


def zero2_step(model, lr, rank):
    """ZeRO-2 by hand: reduce-scatter the gradients, step my shard, all-gather the parameters."""
    params = list(model.parameters())
    grads = torch.cat([p.grad.flatten() for p in params])
    my_grad = torch.empty(grads.numel() // WORLD)
    dist.reduce_scatter_single(my_grad, grads, op=dist.ReduceOp.AVG)
    flat = torch.cat([p.detach().flatten() for p in params])
    my_param = flat.chunk(WORLD)[rank] - lr * my_grad  # the optimizer step, on 1/N of the model
    dist.all_gather_single(flat, my_param)              # after the step: everyone's new shard
    torch.nn.utils.vector_to_parameters(flat, params)


def setup(name, rank):
    model = make_model()
    if name == "DDP":
        model = DDP(model)
        model.register_comm_hook(None, allreduce_hook)  # same result as no hook, and it is logged
        step = torch.optim.SGD(model.parameters(), lr=0.1).step
    elif name == "ZeRO-1 (DDP + ZeroRedundancyOptimizer)":
        model = DDP(model)
        model.register_comm_hook(None, allreduce_hook)
        step = ZeroRedundancyOptimizer(model.parameters(), torch.optim.SGD, lr=0.1).step
    elif name == "ZeRO-2 (by hand)":
        step = lambda: zero2_step(model, 0.1, rank)  # noqa: E731
    else:  # FSDP2 is ZeRO-3
        reshard = name.endswith("reshard_after_forward=True")
        for layer in model:
            fully_shard(layer, reshard_after_forward=reshard)
        fully_shard(model, reshard_after_forward=reshard)
        step = torch.optim.SGD(model.parameters(), lr=0.1).step
    return model, step


CONFIGS = ["DDP", "ZeRO-1 (DDP + ZeroRedundancyOptimizer)", "ZeRO-2 (by hand)",
           "FSDP2, reshard_after_forward=True", "FSDP2, reshard_after_forward=False"]


def worker(rank, results):
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    reference = None
    for name in CONFIGS:
        model, step = setup(name, rank)
        for i in range(2):  # measure the second step: the first also sets things up
            x = torch.randn(8, 256, generator=torch.Generator().manual_seed(10 * rank + i))
            dist.barrier()
            LOG.clear()
            before = written()
            PHASE[0] = "forward"
            loss = model(x).sum()
            PHASE[0] = "backward"
            loss.backward()
            PHASE[0] = "step"
            step()
            after = written()
            model.zero_grad()
        calls = list(LOG)
        final = torch.cat([(p.full_tensor() if hasattr(p, "full_tensor") else p).detach().flatten()
                           for p in model.parameters()])
        reference = final if reference is None else reference
        same = torch.allclose(final, reference, atol=1e-6)
        results.put((CONFIGS.index(name), rank, after - before, calls, same))
        dist.barrier()
    dist.destroy_process_group()


def ring(name, size):  # bytes one rank sends, averaged over the ranks
    n = WORLD
    return {"all_reduce": 2 * (n - 1) / n, "reduce_scatter": (n - 1) / n,
            "all_gather": (n - 1) / n, "broadcast": (n - 1) / n}[name] * size


def on_gloo(name, size):  # gloo's reduce_scatter writes what its all_reduce does
    return ring("all_reduce" if name == "reduce_scatter" else name, size)


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    ctx = mp.get_context("fork")
    results = ctx.Queue()
    mp.start_processes(worker, args=(results,), nprocs=WORLD, start_method="fork")
    rows = sorted(results.get() for _ in range(WORLD * len(CONFIGS)))
    MiB = 2**20
    ddp = None  # DDP's ring-formula bytes, the unit of the "x DDP" column (CONFIGS[0] is DDP)
    print(f"{WORLD} ranks, model S = {sum(p.numel() for p in make_model().parameters()) * 4:,} bytes of fp32")
    for i, name in enumerate(CONFIGS):
        mine = [r for r in rows if r[0] == i]
        calls = mine[0][3]  # rank 0's log (every rank logs the same calls)
        kinds = {}
        for kind, phase, size in calls:
            count, total = kinds.get((kind, phase), (0, 0))
            kinds[kind, phase] = (count + 1, total + size)
        formula = sum(ring(k, s) for k, _, s in calls) / MiB
        gloo = sum(on_gloo(k, s) for k, _, s in calls) / MiB
        wrote = sum(r[2] for r in mine) / WORLD / MiB
        ddp = formula if ddp is None else ddp
        print(f"== {name}")
        print("   calls: " + ", ".join(f"{k} x{c} in {p} ({t / MiB:.2f} MiB)"
                                     for (k, p), (c, t) in kinds.items()))
        print(f"   per rank: ring formula {formula:.2f} MiB ({formula / ddp:.2f} x DDP); "
              f"gloo's algorithms {gloo:.2f} MiB; written (mean) {wrote:.2f} MiB")
        print(f"   same weights as DDP after the step: {all(r[4] for r in mine)}")
