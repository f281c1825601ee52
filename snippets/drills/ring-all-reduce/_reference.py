import torch
import torch.distributed as dist


def ring_all_reduce(tensor):
    n, rank = dist.get_world_size(), dist.get_rank()
    if n == 1:
        return tensor
    chunks = torch.tensor_split(tensor.view(-1), n)  # views: writing a chunk writes the tensor
    right, left = (rank + 1) % n, (rank - 1) % n

    def exchange(send_chunk, recv_into):
        # isend first, then a blocking recv: every rank posts its send, so no one waits forever.
        request = dist.isend(send_chunk, right) if send_chunk.numel() else None
        if recv_into.numel():
            dist.recv(recv_into, left)
        if request is not None:
            request.wait()

    # Reduce-scatter: at step s, send chunk (rank - s) and add the left neighbour's chunk
    # (rank - s - 1) into ours. After N - 1 steps chunk (rank + 1) % n holds the full sum.
    for s in range(n - 1):
        send_i, recv_i = (rank - s) % n, (rank - s - 1) % n
        incoming = torch.empty_like(chunks[recv_i])
        exchange(chunks[send_i], incoming)
        chunks[recv_i].add_(incoming)
    # All-gather: at step s, pass on chunk (rank + 1 - s), complete here, and receive chunk
    # (rank - s), complete at the left neighbour, straight into our copy.
    for s in range(n - 1):
        send_i, recv_i = (rank + 1 - s) % n, (rank - s) % n
        exchange(chunks[send_i], chunks[recv_i])
    return tensor
