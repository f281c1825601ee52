# mistake: calls the collective it was asked to build
# fails: point_to_point_only
import torch.distributed as dist


def ring_all_reduce(tensor):
    dist.all_reduce(tensor)
    return tensor
