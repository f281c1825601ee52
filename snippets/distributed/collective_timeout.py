#| devices: cpu
"""What a gloo job prints when ranks disagree about collectives (TORCH_DISTRIBUTED_DEBUG unset)."""
import datetime
import os
import re

# Keep torch's C++ log lines (timestamped) out of the output; the exceptions carry the same text.
os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

# The default is 30 minutes. Rank 1 waits longer, so rank 0 always gives up first.
TIMEOUTS = {0: datetime.timedelta(seconds=3), 1: datetime.timedelta(seconds=10)}


def scenario(rank, name):
    t = torch.ones(4)
    if name == "rank 1 skips the all_reduce":
        if rank == 0:
            dist.all_reduce(t)
    elif name == "rank 0 all_reduce, rank 1 broadcast":
        if rank == 0:
            dist.all_reduce(t)
        else:
            dist.broadcast(t, src=0)
    elif name == "monitored_barrier, rank 1 never arrives":
        if rank == 0:
            dist.monitored_barrier(timeout=datetime.timedelta(seconds=2))


def worker(rank, world, name, results, all_done):
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=TIMEOUTS[rank])
    try:
        scenario(rank, name)
        outcome = "returned"
    except RuntimeError as e:
        # Drop gloo's source-file prefix ("[/path/to/unbound_buffer.cc:78] "), keep the text.
        text = re.sub(r"\[[^\]]*\.cc:\d+\] ", "", str(e))
        # and the peer's port, which differs from run to run.
        outcome = "RuntimeError: " + re.sub(r"\]:\d+", "]:<port>", text).strip()
    results.put((rank, outcome))
    all_done.wait()  # no rank leaves before the others finish, as in a job that hangs

    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    ctx = mp.get_context("spawn")
    for name in ["rank 1 skips the all_reduce", "rank 0 all_reduce, rank 1 broadcast",
                 "monitored_barrier, rank 1 never arrives"]:
        print(f"== {name}", flush=True)
        results, all_done = ctx.Queue(), ctx.Barrier(2)
        mp.spawn(worker, args=(2, name, results, all_done), nprocs=2)
        for rank, outcome in sorted(results.get() for _ in range(2)):
            print(f"rank {rank}: {outcome}", flush=True)
