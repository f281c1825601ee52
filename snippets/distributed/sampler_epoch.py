import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(16))
sampler = DistributedSampler(dataset, num_replicas=2, rank=0)  # shuffle=True by default

print("without set_epoch:")
for epoch in range(3):
    print(f"  epoch {epoch}: {list(sampler)}")

print("with set_epoch(epoch):")
for epoch in range(3):
    sampler.set_epoch(epoch)  # the seed of the shuffle is seed + epoch
    print(f"  epoch {epoch}: {list(sampler)}")

per_rank_batch, world_size, accumulation_steps = 4, 2, 3
loader = DataLoader(dataset, batch_size=per_rank_batch, sampler=sampler)
print("rank 0 batches per epoch:", len(loader), "of", per_rank_batch, "samples")
print("samples per optimizer step:", per_rank_batch * world_size * accumulation_steps)

try:
    DataLoader(dataset, batch_size=per_rank_batch, sampler=sampler, shuffle=True)
except ValueError as e:
    print("DataLoader(sampler=..., shuffle=True): ValueError:", e)
