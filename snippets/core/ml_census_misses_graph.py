#| fresh: true
import gc

import torch
import torch.nn.functional as F

torch.manual_seed(0)
model = torch.nn.Linear(256, 8192)
losses = []
for _ in range(3):
    x, y = torch.randn(64, 256), torch.randint(0, 8192, (64,))
    losses.append(F.cross_entropy(model(x), y))  # kept with its graph


def census():
    gc.collect()
    seen = {}
    for obj in gc.get_objects():
        if issubclass(type(obj), torch.Tensor):
            seen[obj.untyped_storage().data_ptr()] = obj.untyped_storage().nbytes()
    return sum(seen.values())


print(f"census after 3 kept losses: {census():,} bytes")
held = [loss.grad_fn.next_functions[0][0]._saved_result for loss in losses]  # log_softmax outputs
print(f"log_softmax outputs the graphs hold: {len(held)} x {held[0].nbytes:,} bytes, "
      f"shape {tuple(held[0].shape)}")
print(f"census once they have Python objects: {census():,} bytes")
