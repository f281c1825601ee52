# wrong: the naive ring passes the whole tensor round N - 1 times and sums what arrives; the sum is
# right but each rank sends (N - 1) * numel elements, over the 2 (N - 1) * ceil(numel / N) limit
# for N >= 3 and most numels (N = 3, numel = 3: 6 > 4); N = 2 stays within it
import torch
import torch.distributed as dist


def ring_all_reduce(tensor):
    n = dist.get_world_size()
    if n == 1:
        return tensor
    r = dist.get_rank()
    right, left = (r + 1) % n, (r - 1) % n
    passing = tensor.detach().clone()
    total = tensor.detach().clone()
    for _ in range(n - 1):
        incoming = torch.empty_like(passing)
        recv_req = dist.irecv(incoming, src=left)
        send_req = dist.isend(passing, dst=right)
        recv_req.wait()
        send_req.wait()
        total += incoming
        passing = incoming
    tensor.copy_(total)
    return tensor
