from torch.utils.data import DistributedSampler

dataset = list(range(10))  # 10 samples, 4 ranks: 10 % 4 == 2
world_size = 4


def per_rank(**kwargs):
    """Build each rank's sampler as that rank would, without a process group."""
    samplers = [DistributedSampler(dataset, num_replicas=world_size, rank=r, **kwargs) for r in range(world_size)]
    return [list(s) for s in samplers]


for kwargs in ({"shuffle": False}, {"shuffle": False, "drop_last": True}, {}):
    ranks = per_rank(**kwargs)
    flat = [i for r in ranks for i in r]
    print(kwargs or "defaults (shuffle=True, seed=0, drop_last=False)")
    for r, idx in enumerate(ranks):
        print(f"  rank {r}: {idx}")
    print(f"  {len(flat)} indices in all, {len(set(flat))} distinct, missing: {sorted(set(dataset) - set(flat))}")
