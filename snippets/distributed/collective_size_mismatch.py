#| devices: cpu
"""Mismatched all_reduce tensors on gloo (TORCH_DISTRIBUTED_DEBUG unset): no timeout involved."""
import datetime
import os
import queue
import re
import shutil
import signal
import tempfile
import time

# Keep torch's C++ log lines (timestamped) out of the output; the exceptions carry the same text.
os.environ["TORCH_CPP_LOG_LEVEL"] = "FATAL"
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

# As in collective_timeout.py: rank 0 would give up waiting after 3 s, rank 1 after 10 s.
TIMEOUTS = {0: datetime.timedelta(seconds=3), 1: datetime.timedelta(seconds=10)}
SCENARIOS = {  # what each rank passes to all_reduce; the last one kills a rank, so it runs last
    "shape [4] on rank 0, [2, 2] on rank 1": lambda rank: (
        torch.arange(4.0) if rank == 0 else torch.arange(4.0).reshape(2, 2)),
    "float32 [4] on rank 0, int32 [4] on rank 1": lambda rank: (
        torch.arange(4.0) if rank == 0 else torch.arange(4, dtype=torch.int32)),
    "shape [4] on rank 0, [5] on rank 1": lambda rank: torch.ones(4 + rank),
}


def clean(text):
    text = re.sub(r"\[[^\]]*\.cc:\d+\] ", "", text)  # gloo's source-file prefix
    return re.sub(r"\]:\d+", "]:<port>", text).strip()  # the peer's port


def worker(rank, world, results, all_done, stderr_path):
    # A rank that dies prints its last words on file descriptor 2: keep them for the parent.
    os.dup2(os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    for name, make in SCENARIOS.items():
        group = dist.new_group(timeout=TIMEOUTS[rank])  # a fresh group for each scenario
        t = make(rank)
        results.put((name, rank, "started", time.monotonic()))
        try:
            dist.all_reduce(t, group=group)
            outcome = f"returned {t.tolist()}"
        except RuntimeError as e:
            outcome = "RuntimeError: " + clean(str(e))
        results.put((name, rank, outcome, time.monotonic()))
        if name != list(SCENARIOS)[-1]:
            all_done.wait()  # no rank moves on before the others finish
    dist.destroy_process_group()


def when(seconds):
    """Coarse, so that the record does not depend on the machine's speed."""
    return "under 2 s after the call" if seconds < 2 else "2 s or more after the call"


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). Plain Process objects, not mp.start_processes: a rank that dies must
    # not take the other one down before it reports.
    ctx = mp.get_context("fork")
    results, all_done = ctx.Queue(), ctx.Barrier(2)
    folder = tempfile.mkdtemp()
    paths = [os.path.join(folder, f"rank{r}.stderr") for r in range(2)]
    procs = [ctx.Process(target=worker, args=(r, 2, results, all_done, paths[r])) for r in range(2)]
    for p in procs:
        p.start()
    started, outcomes = {}, {}
    while any(p.is_alive() for p in procs) or not results.empty():
        try:
            name, rank, outcome, t = results.get(timeout=0.05)
        except queue.Empty:  # nothing new yet
            continue
        if outcome == "started":
            started[name, rank] = t
        else:
            outcomes[name, rank] = f"{outcome} ({when(t - started[name, rank])})"
    ended = time.monotonic()
    for p in procs:
        p.join()
    for rank, p in enumerate(procs):
        if p.exitcode != 0:  # a rank that died: no outcome of its own, only its stderr
            text = open(paths[rank]).read()
            name = list(SCENARIOS)[-1]
            thrown = re.search(r"terminate called after throwing an instance of '([^']+)'", text)
            what = re.search(r"what\(\):\s*(.*)", text)
            outcomes[name, rank] = (
                f"process killed, exit code {p.exitcode} "
                f"({signal.Signals(-p.exitcode).name}: an uncaught C++ "
                f"{thrown.group(1)}, not a Python exception) "
                f"({when(ended - started[name, rank])}): {clean(what.group(1))}")
    shutil.rmtree(folder)
    for name in SCENARIOS:
        print(f"== {name}")
        for rank in range(2):
            print(f"rank {rank}: {outcomes.get((name, rank), 'no outcome')}")
