#| devices: cpu
"""What a gloo job prints when ranks disagree about collectives (TORCH_DISTRIBUTED_DEBUG unset)."""
import datetime
import os
import re

# Keep torch's C++ log lines (timestamped) out of the output; the exceptions carry the same text.
os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

# The default is 30 minutes. Rank 1 waits longer, so rank 0 always gives up first.
TIMEOUTS = {0: datetime.timedelta(seconds=3), 1: datetime.timedelta(seconds=10)}
SCENARIOS = ["rank 1 skips the all_reduce", "rank 0 all_reduce, rank 1 broadcast",
             "monitored_barrier, rank 1 never arrives"]


def scenario(rank, name, group):
    t = torch.ones(4)
    if name == "rank 1 skips the all_reduce":
        if rank == 0:
            dist.all_reduce(t, group=group)
    elif name == "rank 0 all_reduce, rank 1 broadcast":
        if rank == 0:
            dist.all_reduce(t, group=group)
        else:
            dist.broadcast(t, src=0, group=group)
    elif name == "monitored_barrier, rank 1 never arrives":
        if rank == 0:
            dist.monitored_barrier(group, timeout=datetime.timedelta(seconds=2))


def worker(rank, world, results, all_done):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    for name in SCENARIOS:
        group = dist.new_group(timeout=TIMEOUTS[rank])  # a fresh group for each scenario
        try:
            scenario(rank, name, group)
            outcome = "returned"
        except RuntimeError as e:
            # Drop gloo's source-file prefix ("[/path/to/unbound_buffer.cc:78] ")
            text = re.sub(r"\[[^\]]*\.cc:\d+\] ", "", str(e))
            # and the peer's port, which differs from run to run,
            text = re.sub(r"\]:\d+", "]:<port>", text)
            # and monitored_barrier's inner receive timeout, which varies from run to run
            # (2000ms, or a few ms less on a busy machine).
            text = re.sub(r"(Original exception: \s*Timed out waiting )\d+ms", r"\1<left>ms", text)
            outcome = "RuntimeError: " + text.strip()
        results.put((name, rank, outcome))
        all_done.wait()  # no rank moves on before the others finish, as in a job that hangs
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). "spawn" (here and in the context) works too, but every rank
    # imports torch again.
    ctx = mp.get_context("fork")
    results, all_done = ctx.Queue(), ctx.Barrier(2)
    mp.start_processes(worker, args=(2, results, all_done), nprocs=2, start_method="fork")
    outcomes = [results.get() for _ in range(2 * len(SCENARIOS))]
    for name in SCENARIOS:
        print(f"== {name}")
        for _, rank, outcome in sorted(o for o in outcomes if o[0] == name):
            print(f"rank {rank}: {outcome}")
