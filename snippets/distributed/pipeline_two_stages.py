#| devices: cpu
"""Pipeline parallelism on 2 gloo ranks: one model cut into two stages, run with GPipe."""
import os
from collections import Counter

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4))


def mse(out, target):
    return ((out - target) ** 2).mean()


def count_p2p(stage, kind, counter):
    """Wrap stage.get_<kind>_ops to count the point-to-point ops the schedule asks for."""
    original = getattr(stage, f"get_{kind}_ops")

    def wrapper(*args, **kwargs):
        ops = original(*args, **kwargs)
        for op in ops:
            counter[f"{kind} {tuple(op.tensor.shape)}"] += 1
        return ops
    setattr(stage, f"get_{kind}_ops", wrapper)


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    full = make_model()
    part = full[:2] if rank == 0 else full[2:]  # stage 0: Linear+ReLU, stage 1: Linear
    stage = PipelineStage(part, stage_index=rank, num_stages=world, device=torch.device("cpu"))
    schedule = ScheduleGPipe(stage, n_microbatches=4, loss_fn=mse)
    p2p = Counter()
    for kind in ("fwd_send", "fwd_recv", "bwd_send", "bwd_recv"):
        count_p2p(stage, kind, p2p)

    torch.manual_seed(1)
    x, target = torch.randn(8, 4), torch.randn(8, 4)  # one batch of 8: 4 micro-batches of 2
    losses = []
    if rank == 0:
        out = schedule.step(x)  # the first stage feeds the input
    else:
        out = schedule.step(target=target, losses=losses)  # the last stage gets the loss

    # The same step on the whole, unsplit model, for comparison.
    reference = make_model()
    ref_out = reference(x)
    mse(ref_out, target).backward()
    ref_part = reference[:2] if rank == 0 else reference[2:]
    grads_close = all(torch.allclose(p.grad, q.grad, atol=1e-6)
                      for p, q in zip(part.parameters(), ref_part.parameters(), strict=True))
    params = {name: tuple(p.shape) for name, p in part.named_parameters()}
    lines = [f"holds {params}",
             "step() returned " + ("None" if out is None else f"output {tuple(out.shape)}, "
                                   f"close to the whole model: {torch.allclose(out, ref_out, atol=1e-6)}"),
             f"losses from this rank: {len(losses)}",
             f"point-to-point ops: {dict(sorted(p2p.items()))}",
             f"gradients close to the whole model's: {grads_close}"]
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        for r, rank_lines in enumerate(gathered):
            print(f"--- rank {r} (stage {r})")
            print("\n".join(rank_lines))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). mp.spawn(...) works too, but every rank imports torch again.
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
