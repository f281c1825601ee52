#| devices: cpu
"""Bytes each gloo rank writes to its sockets for one collective, against the ring formula.

Linux counts every byte a process hands to write() and its kind in /proc/self/io ("wchar"),
and every such call ("syscw"); the difference around one collective is what this rank sent.
"""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

S = 3 * 2**20  # bytes in each rank's tensor: 786,432 float32 values, divisible by 2, 3 and 4


def written():
    fields = dict(line.split(": ") for line in open("/proc/self/io").read().splitlines())
    return int(fields["wchar"]), int(fields["syscw"])


def run(name, t, world, rank):
    if name == "all_reduce":
        dist.all_reduce(t)
    elif name == "all_gather_single":  # t is this rank's 1/N share; the output is S bytes
        dist.all_gather_single(torch.empty(t.numel() * world), t)
    elif name == "reduce_scatter_single":  # t is S bytes; the output is this rank's 1/N
        dist.reduce_scatter_single(torch.empty(t.numel() // world), t)
    elif name == "broadcast":
        dist.broadcast(t, src=0)


def worker(rank, world, results):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    n = S // 4
    cases = [("all_reduce", n), ("all_gather_single", n // world),
             ("reduce_scatter_single", n), ("broadcast", n), ("all_reduce", 1)]
    for name, numel in cases:
        t = torch.ones(numel)
        dist.barrier()  # nobody is still sending the previous collective
        b0, w0 = written()
        run(name, t, world, rank)
        b1, w1 = written()
        results.put((world, name, numel, rank, b1 - b0, w1 - w0))
    dist.barrier()
    dist.destroy_process_group()


# Ring formulas: bytes each rank sends, S being the full tensor (all-gather's output,
# reduce-scatter's input). Broadcast has no per-rank figure: the ranks send different amounts.
FORMULA = {"all_reduce": ("2(N-1)/N*S", lambda N: 2 * (N - 1) * S // N),
           "all_gather_single": ("(N-1)/N*S", lambda N: (N - 1) * S // N),
           "reduce_scatter_single": ("(N-1)/N*S", lambda N: (N - 1) * S // N)}


def same(values):  # one number when every rank agrees, else the list in rank order
    return f"{values[0]:,}" if len(set(values)) == 1 else str(values)


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    ctx = mp.get_context("fork")
    for world in (2, 3, 4):
        results = ctx.Queue()
        mp.start_processes(worker, args=(world, results), nprocs=world, start_method="fork")
        rows = sorted(results.get() for _ in range(5 * world))
        print(f"== {world} ranks, S = {S:,} bytes")
        for name in ("all_reduce", "all_gather_single", "reduce_scatter_single", "broadcast"):
            sent = [r[4] for r in rows if r[1] == name and r[2] > 1]
            writes = [r[5] for r in rows if r[1] == name and r[2] > 1]
            if name == "broadcast":
                print(f"{name:22} written by rank 0..{world - 1}: {sent}, total {sum(sent):,}")
                continue
            label, formula = FORMULA[name]
            print(f"{name:22} per rank: written {same(sent)} in {same(writes)} writes; "
                  f"ring {label} = {formula(world):,}")
            ar = FORMULA["all_reduce"][1](world)  # what is left over per write, against
            base = formula(world) if name != "reduce_scatter_single" else ar  # all_reduce's
            extra = [(b - base) / w for b, w in zip(sent, writes)]     # formula for reduce_scatter
            print(f"{'':22} (written - {'all_reduce formula' if base == ar and name != 'all_reduce' else 'formula'}) / writes = {same(extra)} B")
        tiny = [r for r in rows if r[1] == "all_reduce" and r[2] == 1]
        # Which rank sends how many small messages varies from run to run: print bounds.
        print(f"{'all_reduce of 4 bytes':22} every rank: at least {min(r[5] for r in tiny)} writes, "
              f"under 400 bytes: {all(r[4] < 400 for r in tiny)}")
