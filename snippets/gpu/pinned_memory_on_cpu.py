import warnings

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

print("accelerator available:", torch.accelerator.is_available())
x = torch.randn(4, 3)
print("x.is_pinned():", x.is_pinned())
for name, make in [("x.pin_memory()", lambda: x.pin_memory()),
                   ("torch.empty(3, pin_memory=True)", lambda: torch.empty(3, pin_memory=True))]:
    try:
        make()
    except RuntimeError as e:
        print(f"{name}: RuntimeError: {e}")

# DataLoader(pin_memory=True) without an accelerator: a warning, and no pinning.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    batch, = next(iter(DataLoader(TensorDataset(x), batch_size=2, pin_memory=True)))
print("DataLoader warning:", caught[0].message)
print("batch.is_pinned():", batch.is_pinned())


class ShowOps(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        print(" ", func, {k: v for k, v in kwargs.items() if k in ("device", "non_blocking")})
        return func(*args, **kwargs)


# non_blocking is an argument of the copy op that .to() dispatches.
with ShowOps():
    print("x.to('meta', non_blocking=True) dispatches:")
    x.to("meta", non_blocking=True)
    print("x.to('cpu', non_blocking=True) dispatches nothing; same tensor:",
          x.to("cpu", non_blocking=True) is x)
