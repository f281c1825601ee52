import warnings

import torch
from torch import nn

torch.manual_seed(0)
checkpoint = nn.Linear(4, 3).state_dict()  # stands in for torch.load(..., mmap=True)

with torch.device("meta"):
    model = nn.Linear(4, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model.load_state_dict(checkpoint)  # assign=False: copy_ into the meta tensors
print("assign=False -> weight on", model.weight.device)
print(len(caught), "warnings, the first:")
print(f"{caught[0].category.__name__}: {caught[0].message}")

with torch.device("meta"):
    model = nn.Linear(4, 3)
model.load_state_dict(checkpoint, assign=True)  # the checkpoint's tensors become the params
print("assign=True -> weight on", model.weight.device,
      "| a Parameter:", isinstance(model.weight, nn.Parameter),
      "| requires_grad:", model.weight.requires_grad)
print("shares the checkpoint's storage:",
      model.weight.untyped_storage().data_ptr() == checkpoint["weight"].untyped_storage().data_ptr())
print("the same object as the checkpoint's tensor:", model.weight is checkpoint["weight"])

# A checkpoint that holds Parameters (keep_vars=True) is assigned object for object.
params_ckpt = nn.Linear(4, 3).state_dict(keep_vars=True)
with torch.device("meta"):
    model = nn.Linear(4, 3)
old_weight = model.weight
opt = torch.optim.SGD(model.parameters(), lr=0.1)  # built too early
model.load_state_dict(params_ckpt, assign=True)
print("keep_vars checkpoint: same object:", model.weight is params_ckpt["weight"])
print("optimizer still holds the old meta Parameter:",
      opt.param_groups[0]["params"][0] is old_weight, opt.param_groups[0]["params"][0].device)
