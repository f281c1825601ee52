#| devices: cpu
"""GPipe, 1F1B and interleaved 1F1B on 2 gloo ranks: the order each rank runs, what it holds."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.pipelining import (PipelineStage, Schedule1F1B, ScheduleGPipe,
                                          ScheduleInterleaved1F1B)


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(),
                         nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 4))


def split(model, n_stages):  # two stages of two linears each, or four of one each
    cuts = {2: [(0, 4), (4, 7)], 4: [(0, 2), (2, 4), (4, 6), (6, 7)]}[n_stages]
    return [model[a:b] for a, b in cuts]


def mse(out, target):
    return ((out - target) ** 2).mean()


def trace(stages, log, held, sends):
    """Log each forward and backward a stage runs, and the most forwards awaiting backward."""
    for stage in stages:
        fwd, bwd = stage.forward_one_chunk, stage.backward_one_chunk
        tag = f"s{stage.stage_index}" if len(stages) > 1 else ""

        def forward_one_chunk(i, *args, _fwd=fwd, _tag=tag, **kwargs):
            out = _fwd(i, *args, **kwargs)
            log.append(f"F{i}{_tag}")
            # fwd_cache: the forwards that ran and whose backward has not: their activations
            held[0] = max(held[0], sum(len(s.fwd_cache) for s in stages))
            return out

        def backward_one_chunk(i, *args, _bwd=bwd, _tag=tag, **kwargs):
            log.append(f"B{i}{_tag}")
            return _bwd(i, *args, **kwargs)

        def get_fwd_send_ops(i, _send=stage.get_fwd_send_ops):
            ops = _send(i)
            sends[0] += len(ops)  # activations this stage sends to the next
            return ops
        stage.forward_one_chunk, stage.backward_one_chunk = forward_one_chunk, backward_one_chunk
        stage.get_fwd_send_ops = get_fwd_send_ops


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(1)
    x, target = torch.randn(8, 4), torch.randn(8, 4)  # one batch of 8: 4 micro-batches of 2 (or 8 of 1)
    reference = make_model()  # the same step in one process
    ref_loss = mse(reference(x), target)
    ref_loss.backward()

    report = []
    for schedule_cls, n_stages, n_mb in ((ScheduleGPipe, 2, 4), (Schedule1F1B, 2, 4),
                                         (ScheduleInterleaved1F1B, 4, 4),
                                         (ScheduleGPipe, 2, 8), (Schedule1F1B, 2, 8)):
        parts = split(make_model(), n_stages)
        mine = list(range(rank, n_stages, world))  # rank 0: stage 0 (and 2), rank 1: 1 (and 3)
        stages = [PipelineStage(parts[i], stage_index=i, num_stages=n_stages,
                                device=torch.device("cpu")) for i in mine]
        log, held, sends = [], [0], [0]
        trace(stages, log, held, sends)
        multi = schedule_cls is ScheduleInterleaved1F1B
        schedule = schedule_cls(stages if multi else stages[0], n_microbatches=n_mb, loss_fn=mse)
        losses = []
        if rank == 0:
            schedule.step(x)
        else:
            schedule.step(target=target, losses=losses)
        ref_parts = split(reference, n_stages)
        grads_match = all(torch.allclose(p.grad, q.grad, atol=1e-6)
                          for i in mine
                          for p, q in zip(parts[i].parameters(), ref_parts[i].parameters(),
                                          strict=True))
        line = (f"rank {rank}: {' '.join(log)}\n        forwards awaiting backward, at most: {held[0]}, "
                f"activations sent: {sends[0]}, gradients match one process: {grads_match}")
        if losses:
            line += (f", {len(losses)} losses, their mean matches: "
                     f"{torch.allclose(torch.stack(losses).mean(), ref_loss, atol=1e-6)}")
        report.append((schedule_cls.__name__, n_stages, n_mb, line))

    gathered = [None] * world
    dist.all_gather_object(gathered, report)
    if rank == 0:
        for k, (name, n_stages, n_mb, _) in enumerate(report):
            print(f"--- {name}, {n_stages} stages on {world} ranks, {n_mb} micro-batches")
            for r in range(world):
                print(gathered[r][k][3])
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
