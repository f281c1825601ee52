import torch
import torch.distributed as dist


def _step(flat, bounds, send_i, recv_i, right, left, accumulate):
    """Post the receive and the send together, then wait; neither blocks the other."""
    s0, s1 = bounds[send_i]
    r0, r1 = bounds[recv_i]
    pending = []
    incoming = None
    if r1 > r0:
        incoming = flat.new_empty(r1 - r0) if accumulate else flat[r0:r1]
        pending.append(dist.irecv(incoming, src=left))
    if s1 > s0:
        pending.append(dist.isend(flat[s0:s1], dst=right))
    for work in pending:
        work.wait()
    if accumulate and incoming is not None:
        flat[r0:r1] += incoming


def ring_all_reduce(tensor):
    world = dist.get_world_size()
    rank = dist.get_rank()
    if world < 2:
        return tensor
    flat = tensor.view(-1)
    # Same boundaries as torch.tensor_split(flat, world), kept as (start, stop) offsets.
    sizes = [c.numel() for c in torch.tensor_split(flat, world)]
    starts = [sum(sizes[:i]) for i in range(world)]
    bounds = [(a, a + k) for a, k in zip(starts, sizes, strict=True)]
    right = (rank + 1) % world
    left = (rank + world - 1) % world

    # This variant ends the reduce-scatter with rank r owning chunk r: at step s it sends the
    # partial sum of chunk r - 1 - s and adds into chunk r - 2 - s.
    for s in range(world - 1):
        _step(flat, bounds, (rank - 1 - s) % world, (rank - 2 - s) % world, right, left, True)
    # All-gather: rank r starts by forwarding its own finished chunk r.
    for s in range(world - 1):
        _step(flat, bounds, (rank - s) % world, (rank - 1 - s) % world, right, left, False)
    return tensor
