#| devices: cpu
#| timeout: 60
# Expert parallelism on 2 CPU ranks (gloo): each rank holds half of the E experts, routes its own
# tokens, and sends each (token, expert) assignment's hidden vector to the rank that owns the
# expert with all_to_all_single (the dispatch); the outputs come back the same way (the combine).
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD, E, K, T, D = 2, 4, 2, 6, 3
PER_RANK = E // WORLD  # rank r owns experts r * PER_RANK ... (r + 1) * PER_RANK - 1


def shared_weights():
    g = torch.Generator().manual_seed(0)  # the same router and experts on every rank
    return torch.randn(D, E, generator=g), torch.randn(E, D, D, generator=g)


def run(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    router, experts_w = shared_weights()
    x = torch.randn(T, D, generator=torch.Generator().manual_seed(10 + rank))  # this rank's tokens

    probs = torch.softmax(x @ router, dim=-1)
    top, experts = probs.topk(K, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)

    # Dispatch: the T * K assignments sorted by expert, so each destination rank's rows are
    # contiguous; the counts per rank are the split sizes.
    flat_expert = experts.reshape(-1)
    order = flat_expert.argsort(stable=True)
    send_x = x.repeat_interleave(K, dim=0)[order]
    send_e = flat_expert[order]
    send_counts = torch.bincount(send_e // PER_RANK, minlength=WORLD)
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)  # first: how many rows each rank will get
    s, r = send_counts.tolist(), recv_counts.tolist()
    recv_x = torch.empty(sum(r), D)
    dist.all_to_all_single(recv_x, send_x, output_split_sizes=r, input_split_sizes=s)
    recv_e = torch.empty(sum(r), dtype=torch.int64)
    dist.all_to_all_single(recv_e, send_e, output_split_sizes=r, input_split_sizes=s)

    # Each rank runs only its own experts, on the rows it received.
    out_rows = torch.einsum("nd,nde->ne", recv_x, experts_w[recv_e])

    # Combine: the reverse all_to_all (splits swapped), then unsort and weight.
    back = torch.empty(sum(s), D)
    dist.all_to_all_single(back, out_rows, output_split_sizes=s, input_split_sizes=r)
    per_assignment = torch.empty_like(back)
    per_assignment[order] = back
    y = (per_assignment.reshape(T, K, D) * weights.unsqueeze(-1)).sum(dim=1)

    # The same layer on one process, every expert local.
    dense = sum(weights[:, j:j + 1] * torch.einsum("td,tde->te", x, experts_w[experts[:, j]])
                for j in range(K))
    lines = [f"rank {rank}: owns experts {list(range(rank * PER_RANK, (rank + 1) * PER_RANK))},"
             f" sends rows per rank {s}, receives {r} (expert ids {recv_e.tolist()}),"
             f" output equals the single-process layer: {torch.allclose(y, dense, atol=1e-6)}"]
    gathered = [None] * WORLD
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        for rank_lines in gathered:
            print(*rank_lines, sep="\n")
        print(f"each rank sends T * K = {T * K} rows of {D} values out and gets as many back")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(run, nprocs=WORLD)
