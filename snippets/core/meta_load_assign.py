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


class TiedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.lm_head = nn.Linear(4, 10, bias=False)
        self.lm_head.weight = self.embed.weight  # one Parameter, two owners


tied_ckpt = TiedLM().state_dict()
with torch.device("meta"):
    model = TiedLM()
model.load_state_dict(tied_ckpt, assign=True)
print("tied model after assign=True: still tied:", model.lm_head.weight is model.embed.weight,
      "| parameters():", len(list(model.parameters())))

# With the swap flag of torch.__future__, the load swaps into the existing Parameter objects.
torch.__future__.set_swap_module_params_on_conversion(True)
with torch.device("meta"):
    model = nn.Linear(4, 3)
old_weight = model.weight
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model.load_state_dict(checkpoint, assign=True)
print("swap flag on: same Parameter object kept:", model.weight is old_weight,
      "| the optimizer's parameter is on", opt.param_groups[0]["params"][0].device)
torch.__future__.set_swap_module_params_on_conversion(False)
