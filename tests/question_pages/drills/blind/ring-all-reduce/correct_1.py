import torch
import torch.distributed as dist


def ring_all_reduce(tensor):
    n = dist.get_world_size()
    if n == 1:
        return tensor
    r = dist.get_rank()
    right, left = (r + 1) % n, (r - 1) % n
    chunks = torch.tensor_split(tensor.view(-1), n)

    def exchange(send_idx, recv_idx, reduce):
        out, into = chunks[send_idx], chunks[recv_idx]
        buf = torch.empty_like(into) if reduce else into
        # Blocking send waits for the matching recv, so even ranks send first and odd ranks receive
        # first: every chain of waiting senders ends at a rank that is receiving.
        if r % 2 == 0:
            if out.numel() > 0:
                dist.send(out, right)
            if into.numel() > 0:
                dist.recv(buf, left)
        else:
            if into.numel() > 0:
                dist.recv(buf, left)
            if out.numel() > 0:
                dist.send(out, right)
        if reduce and into.numel() > 0:
            into.add_(buf)

    # Reduce-scatter: at step s rank r sends chunk r - s and accumulates chunk r - s - 1, so it
    # ends holding chunk r + 1 fully summed.
    for s in range(n - 1):
        exchange((r - s) % n, (r - s - 1) % n, reduce=True)
    # All-gather: pass the finished chunks on, overwriting the stale copies.
    for s in range(n - 1):
        exchange((r + 1 - s) % n, (r - s) % n, reduce=False)
    return tensor
