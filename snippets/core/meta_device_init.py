import torch
from torch import nn

with torch.device("meta"):
    big = nn.Linear(50_000, 50_000)  # 2.5e9 weights, 10 GB in float32
w = big.weight
print("device:", w.device, "| shape:", tuple(w.shape), "| dtype:", w.dtype)
print("is a Parameter:", isinstance(w, nn.Parameter), "| requires_grad:", w.requires_grad)
print("bytes it would need:", w.numel() * w.element_size())
print("storage data_ptr:", w.untyped_storage().data_ptr())

# Shapes flow through ops on meta tensors, with no data computed.
y = big(torch.empty(8, 50_000, device="meta"))
print("output:", y.device, tuple(y.shape))

# Materialize a small model: to_empty allocates, reset_parameters initializes.
torch.manual_seed(0)
ref = nn.Linear(4, 3)  # built normally
with torch.device("meta"):
    small = nn.Linear(4, 3)
small.to_empty(device="cpu")  # real memory, values not initialized
torch.manual_seed(0)
small.reset_parameters()  # the same init Linear.__init__ runs
print("after to_empty + reset_parameters, equal to a normal build:",
      torch.equal(small.weight, ref.weight) and torch.equal(small.bias, ref.bias))
