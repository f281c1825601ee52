#| fresh: true
import gc
from collections import Counter

import torch


def census(title):
    """Every tensor the garbage collector can see, grouped by shape, bytes counted once per storage."""
    gc.collect()
    storages = {}
    for obj in gc.get_objects():
        if issubclass(type(obj), torch.Tensor):
            kind = "parameter" if isinstance(obj, torch.nn.Parameter) else "tensor"
            storages[obj.untyped_storage().data_ptr()] = (kind, tuple(obj.shape), obj.untyped_storage().nbytes())
    groups = Counter()
    for kind, shape, nbytes in storages.values():
        groups[(kind, shape)] += nbytes
    print(f"{title}: {sum(groups.values()):,} bytes in {len(storages)} storages")
    for (kind, shape), nbytes in groups.most_common(4):
        print(f"  {kind:9} {str(shape):12} {nbytes:>10,} bytes")


torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1))
val_losses = []
for _ in range(5):  # a validation loop without torch.no_grad()
    loss = torch.nn.functional.mse_loss(model(torch.randn(64, 256)), torch.randn(64, 1))
    val_losses.append(loss)
del loss
census("after the loop")

relu_out = next(o for o in gc.get_objects() if issubclass(type(o), torch.Tensor) and o.shape == (64, 1024))
print("a (64, 1024) tensor: grad_fn", type(relu_out.grad_fn).__name__,
      "| Python objects referring to it, besides this name:", len(gc.get_referrers(relu_out)) - 1)
del relu_out

val_losses = [v.item() for v in val_losses]
census("after keeping floats instead")
