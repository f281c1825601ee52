# The follow-up of ring-all-reduce, on the pinned torch: the bytes each rank sends in the ring
# all-reduce (the reference) and in the naive all-to-one (everyone sends to rank 0, which sums and
# sends the total back), counted by wrapping dist.isend and dist.send, for world size 4.
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from _reference import ring_all_reduce

WORLD, NUMEL = 4, 1_000_000  # a float32 tensor of 4,000,000 bytes per rank


def naive_all_reduce(tensor):
    if dist.get_rank() == 0:
        incoming = torch.empty_like(tensor)
        for peer in range(1, dist.get_world_size()):
            dist.recv(incoming, peer)
            tensor.add_(incoming)
        for peer in range(1, dist.get_world_size()):
            dist.send(tensor, peer)
    else:
        dist.send(tensor, 0)
        dist.recv(tensor, 0)
    return tensor


def worker(rank):
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    sent = {"bytes": 0, "messages": 0}
    isend, send = dist.isend, dist.send

    def counting_isend(tensor, dst, *args, **kwargs):
        sent["bytes"] += tensor.numel() * tensor.element_size()
        sent["messages"] += 1
        return isend(tensor, dst, *args, **kwargs)

    def counting_send(tensor, dst, *args, **kwargs):
        sent["bytes"] += tensor.numel() * tensor.element_size()
        sent["messages"] += 1
        return send(tensor, dst, *args, **kwargs)

    x = torch.randn(NUMEL, generator=torch.Generator().manual_seed(rank))
    expected = x.clone()
    dist.all_reduce(expected)
    rows = []
    for name, fn in (("ring", ring_all_reduce), ("naive all-to-one", naive_all_reduce)):
        sent.update(bytes=0, messages=0)
        dist.isend, dist.send = counting_isend, counting_send
        y = x.clone()
        fn(y)
        dist.isend, dist.send = isend, send  # the real ones for the report below
        rows.append((name, sent["bytes"], sent["messages"], torch.allclose(y, expected, atol=1e-4)))
    everyone = [None] * WORLD
    dist.all_gather_object(everyone, rows)
    if rank == 0:
        size = NUMEL * 4
        print(f"world size {WORLD}, a float32 tensor of S = {size:,} bytes on each rank")
        for i, name in enumerate(("ring", "naive all-to-one")):
            print(f"{name}: equals dist.all_reduce on every rank: {all(r[i][3] for r in everyone)}")
            for r in range(WORLD):
                _, nbytes, messages, _ = everyone[r][i]
                print(f"  rank {r} sends {nbytes:,} bytes in {messages} messages = {nbytes / size:g} S")
        print(f"2 (N - 1) / N x S = {2 * (WORLD - 1) / WORLD * size:,.0f} bytes;"
              f" (N - 1) x S = {(WORLD - 1) * size:,} bytes")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, nprocs=WORLD, start_method="fork")
