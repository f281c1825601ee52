import torch

torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(3)  # train mode: normalizes with the batch's own statistics
x = torch.randn(8, 3)

full = bn(x)
print("batches seen after 1 full batch:", bn.num_batches_tracked.item())

bn.reset_running_stats()
micro = torch.cat([bn(xb) for xb in x.chunk(4)])  # 4 micro-batches of 2
print("batches seen after 4 micro-batches:", bn.num_batches_tracked.item())
print("same output as the full batch:", torch.allclose(micro, full, atol=1e-6))
