#| devices: cpu
#| timeout: 60
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

D_MODEL, TOKENS = 4, 6


def make_expert(e):
    torch.manual_seed(100 + e)  # the same weights wherever expert e is built
    return torch.nn.Linear(D_MODEL, D_MODEL)


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    router = torch.nn.Linear(D_MODEL, world_size, bias=False)  # one expert per rank, same router everywhere
    expert = make_expert(rank)                                   # this rank holds expert `rank` only
    torch.manual_seed(5 + rank)
    x = torch.randn(TOKENS, D_MODEL)                             # this rank's own tokens
    ids = torch.arange(TOKENS) + 10 * rank                       # token ids, to see where each goes

    with torch.no_grad():
        dest = router(x).argmax(dim=-1)                      # top-1 expert = destination rank
        order = dest.argsort(stable=True)                     # group tokens by destination
        send_counts = torch.bincount(dest, minlength=world_size)
        recv_counts = torch.empty_like(send_counts)
        dist.all_to_all_single(recv_counts, send_counts)     # 1st all-to-all: how many tokens to expect
        s, r = send_counts.tolist(), recv_counts.tolist()
        recv = torch.empty(sum(r), D_MODEL)
        dist.all_to_all_single(recv, x[order], output_split_sizes=r, input_split_sizes=s)  # 2nd: the tokens
        recv_ids = torch.empty(sum(r), dtype=torch.long)
        dist.all_to_all_single(recv_ids, ids[order], output_split_sizes=r, input_split_sizes=s)
        out = expert(recv)                                    # expert runs on every token sent to it
        back = torch.empty(TOKENS, D_MODEL)
        dist.all_to_all_single(back, out, output_split_sizes=s, input_split_sizes=r)  # 3rd: results go home
        y = torch.empty_like(back)
        y[order] = back                                       # undo the grouping

        local = torch.stack([make_expert(e)(x[t]) for t, e in enumerate(dest.tolist())])
    sent_away = sum(c for peer, c in enumerate(s) if peer != rank)
    row = (rank, dest.tolist(), s, r, recv_ids.tolist(), sent_away * D_MODEL * 4,
           torch.allclose(y, local, atol=1e-6))
    rows = [None] * world_size
    dist.all_gather_object(rows, row)
    if rank == 0:
        for rk, d, sc, rc, ri, nbytes, same in rows:
            print(f"rank {rk}: destinations {d} send_counts {sc} recv_counts {rc}")
            print(f"        expert {rk} received token ids {ri}")
            print(f"        bytes sent to the other rank: {nbytes}; output equals local MoE: {same}")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
