#| expect: RuntimeError
import torch
from torch import nn

torch.manual_seed(0)
trained = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
# A checkpoint saved from a wrapper: DataParallel (and DDP) keep the model as self.module
checkpoint = nn.DataParallel(trained).state_dict()
print("DataParallel keys:", list(checkpoint)[:2], "...")

fresh = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
weight = fresh[0].weight
result = fresh.load_state_dict(checkpoint, strict=False)
print(type(result).__name__, "missing:", result.missing_keys)
print(type(result).__name__, "unexpected:", result.unexpected_keys[:2], "...")
print("strict=False loaded the trained weights:", torch.equal(fresh[0].weight, trained[0].weight))

nn.modules.utils.consume_prefix_in_state_dict_if_present(checkpoint, "module.")
result = fresh.load_state_dict(checkpoint)  # strict=True by default
print("after removing the prefix:", result)
print("loaded the trained weights:", torch.equal(fresh[0].weight, trained[0].weight))
print("same Parameter object, copied in place:", fresh[0].weight is weight)

del checkpoint["2.bias"]
checkpoint["2.scale"] = torch.ones(1)
fresh.load_state_dict(checkpoint)  # strict=True: missing or unexpected keys raise
