#| expect: RuntimeError
import warnings

import torch

torch.manual_seed(0)

index, values = torch.tensor([0, 0]), torch.tensor([1.0, 2.0])

torch.use_deterministic_algorithms(True, warn_only=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.zeros(3).put_(index, values)  # two writes to one place, accumulate=False
print("warn_only=True:", str(caught[0].message).splitlines()[0][:60], "...")

torch.use_deterministic_algorithms(True)
print("deterministic:", torch.are_deterministic_algorithms_enabled())
print("put_ with accumulate=True on CPU:", torch.zeros(3).put_(index, values, accumulate=True).tolist())
print("index_add_ on CPU:", torch.zeros(3).index_add_(0, index, values).tolist())
pooled, where = torch.nn.MaxPool1d(2, return_indices=True)(torch.randn(1, 1, 4))
try:
    torch.nn.MaxUnpool1d(2)(pooled, where)
except RuntimeError as e:
    print("MaxUnpool1d on CPU:", str(e).split(",")[0])
try:
    torch.zeros(3).put_(torch.tensor([0, 1]), values)  # distinct indices, accumulate=False
except RuntimeError as e:
    print("put_ with distinct indices on CPU:", str(e).split(",")[0])
torch.zeros(3).put_(index, values)  # accumulate=False: raises on CPU too
