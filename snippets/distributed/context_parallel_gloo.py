#| devices: cpu
#| timeout: 120
import contextlib
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

N, L, D = 2, 16, 8


def positions(rank):
    """Head-tail shard: of 2N chunks, rank i holds chunks i and 2N-1-i."""
    chunks = torch.arange(L).chunk(2 * N)
    return torch.cat([chunks[rank], chunks[2 * N - 1 - rank]])


def ring_attention(q, k, v):
    """Causal ring attention: pass the K/V blocks round the ring, merge by logsumexp."""
    rank = dist.get_rank()
    q_pos = positions(rank)
    out = torch.zeros_like(q)
    lse = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype)
    kv = torch.cat([k, v], dim=-1)
    for step in range(N):
        if step < N - 1:  # post the exchange first, so it can overlap the compute
            send = dist.isend(kv, (rank + 1) % N)
            incoming = torch.empty_like(kv)
            recv = dist.irecv(incoming, (rank - 1) % N)
        k_pos = positions((rank - step) % N)      # the block came from rank - step
        s = (q @ kv[..., :D].transpose(-2, -1)) / D ** 0.5
        s = s.masked_fill(k_pos[None, :] > q_pos[:, None], float("-inf"))
        b_lse = torch.logsumexp(s, -1, keepdim=True)
        b_out = torch.nan_to_num(torch.softmax(s, -1)) @ kv[..., D:]
        new = torch.logaddexp(lse, b_lse)
        out = (torch.nan_to_num(torch.exp(lse - new)) * out
               + torch.nan_to_num(torch.exp(b_lse - new)) * b_out)
        lse = new
        if step < N - 1:
            send.wait()
            recv.wait()
            kv = incoming
    return out


def worker(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group("gloo", rank=rank, world_size=N)
    torch.manual_seed(0)                           # every rank builds the same full q, k, v
    q, k, v = (torch.randn(1, 2, L, D, dtype=torch.float64) for _ in range(3))
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    pos = positions(rank)                          # each rank keeps only its shard
    out = ring_attention(q[:, :, pos], k[:, :, pos], v[:, :, pos])
    err = torch.tensor([(out - ref[:, :, pos]).abs().max().item()], dtype=torch.float64)
    dist.all_reduce(err, op=dist.ReduceOp.MAX)
    if rank == 0:
        print("2 gloo ranks, max |ring - sdpa| over both shards below 1e-12:", err.item() < 1e-12)

    # torch's own API on CPU
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.experimental import context_parallel
    mesh = init_device_mesh("cpu", (N,))
    q, k, v = (torch.randn(1, 2, L, D) for _ in range(3))
    for name, backend in [("default", None), ("math", SDPBackend.MATH),
                          ("efficient", SDPBackend.EFFICIENT_ATTENTION)]:
        try:
            with sdpa_kernel(backend) if backend else contextlib.nullcontext():
                with context_parallel(mesh, buffers=[q, k, v], buffer_seq_dims=[2, 2, 2]):
                    F.scaled_dot_product_attention(q, k, v, is_causal=True)
            result = "ran"
        except Exception as e:
            result = f"{type(e).__name__}: {e}"
        results = [None] * N
        dist.all_gather_object(results, result)
        if rank == 0:
            for r, res in enumerate(results):
                print(f"context_parallel, {name} SDPA backend, rank {r}: {res}")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.start_processes(worker, nprocs=N, start_method="fork")
