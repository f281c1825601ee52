#| devices: cpu
#| timeout: 120
"""A CPU build of torch has no NCCL: what it says about NCCL's default timeout, and what gloo
shows of a hang, with the flight recorder that 2.13 also fills for gloo (no variable set)."""
import datetime
import json
import os
import re
import time
import warnings

os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"  # keep timestamped C++ log lines out of the output
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch._C._distributed_c10d import _dump_fr_trace_json
from torch.distributed import constants
from torch.distributed.distributed_c10d import Backend, _get_default_timeout

TIMEOUTS = {0: datetime.timedelta(seconds=3), 1: datetime.timedelta(seconds=10)}


def defaults():
    print("NCCL compiled into this torch:", dist.is_nccl_available())
    print("constants.default_pg_timeout:", constants.default_pg_timeout)
    print("constants.default_pg_nccl_timeout:", constants.default_pg_nccl_timeout)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nccl = _get_default_timeout(Backend.NCCL)
    print(f"_get_default_timeout(NCCL): {nccl}, warning: {caught[0].message}")
    print("_get_default_timeout(GLOO):", _get_default_timeout(Backend.GLOO))


def clean(text):
    text = re.sub(r"\[[^\]]*\.cc:\d+\] ", "", text)  # gloo's source-file prefix
    return re.sub(r"\]:\d+", "]:<port>", text).split(". This is")[0]  # the peer's port, the hint


def when(seconds):  # coarse, so that the record does not depend on the machine's speed
    return "under 2 s" if seconds < 2 else "2 to 5 s" if seconds < 5 else "5 s or more"


def worker(rank, world, results, all_done):
    dist.init_process_group("gloo", rank=rank, world_size=world)  # the default timeout
    dist.all_reduce(torch.ones(4))
    group = dist.new_group(timeout=TIMEOUTS[rank])  # rank 0 gives up first
    dist.all_reduce(torch.ones(4), group=group)
    start = time.monotonic()
    try:
        if rank == 0:  # the bug: the ranks disagree on the second collective of the group
            dist.all_reduce(torch.ones(8), group=group)
        else:
            dist.broadcast(torch.ones(8), src=0, group=group)
        outcome = "returned"
    except RuntimeError as e:
        outcome = "RuntimeError: " + clean(str(e))
    outcome += f" ({when(time.monotonic() - start)} after the call)"
    trace = json.loads(_dump_fr_trace_json())  # this rank's flight recorder, as JSON
    results.put((rank, outcome, trace["entries"]))
    all_done.wait()
    dist.destroy_process_group()


if __name__ == "__main__":
    defaults()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    ctx = mp.get_context("fork")
    results, all_done = ctx.Queue(), ctx.Barrier(2)
    mp.start_processes(worker, args=(2, results, all_done), nprocs=2, start_method="fork")
    rows = sorted((results.get() for _ in range(2)), key=lambda r: r[0])
    calls = {}
    for rank, outcome, entries in rows:
        print(f"== rank {rank}: {outcome}")
        for e in entries:
            key = (e["process_group"][0], e["collective_seq_id"])
            calls.setdefault(key, {})[rank] = (e["profiling_name"], e["input_sizes"])
            print(f"  group {key[0]} seq {key[1]}: {e['profiling_name']} {e['input_sizes']}"
                  f" timeout_ms={e['timeout_ms']} state={e['state']}")
    for (group, seq), by_rank in sorted(calls.items()):
        if len(set(map(str, by_rank.values()))) > 1 or len(by_rank) < 2:
            print(f"first disagreement: group {group} seq {seq}: {by_rank}")
            break
