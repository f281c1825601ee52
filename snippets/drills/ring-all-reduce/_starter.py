import torch  # noqa: F401 (yours to use)
import torch.distributed as dist  # noqa: F401


def ring_all_reduce(tensor):
    """Sum `tensor` over all ranks, in place, with the ring algorithm and point-to-point messages.

    Called at the same time on every rank of an initialised gloo default process group of world
    size N = dist.get_world_size() (the judge uses N = 2, 3 and 4); rank r = dist.get_rank().
    tensor: a contiguous CPU tensor, float32 or int64, of any shape and any numel >= 1 (also
        fewer elements than ranks), the same shape and dtype on every rank.
    After the call, `tensor` itself holds the elementwise sum of every rank's input, on every
    rank: what dist.all_reduce(tensor) (op SUM) gives, exactly for int64, within float rounding
    for float32. Return `tensor` (the judge reads the tensor it passed in).

    Only dist.send, dist.recv, dist.isend and dist.irecv (and .wait() on what the last two
    return) may move data; every collective (all_reduce, reduce, broadcast, all_gather,
    reduce_scatter, barrier, ...) raises in the judge's ranks.

    The ring: split tensor.view(-1) into N chunks with torch.tensor_split(flat, N) (their sizes
    differ by at most one; with numel < N some are empty, and an empty chunk need not be sent).
    Rank r sends only to (r + 1) % N and receives only from (r - 1) % N.
    1. Reduce-scatter, N - 1 steps: at each, every rank sends one chunk to its right neighbour
       and adds the chunk it receives from its left one into its own copy; afterwards each rank
       holds one chunk fully summed.
    2. All-gather, N - 1 steps: the summed chunks travel round the ring, each rank overwriting
       its copy with the one it receives.
    Each rank sends at most 2 (N - 1) chunks, so at most 2 (N - 1) * ceil(numel / N) elements.
    gloo's send blocks until the matching recv has started, even for one element: if every
    rank calls a blocking send first, no one receives.
    With N = 1 there is nothing to do.
    """
    raise NotImplementedError("write ring_all_reduce here")
