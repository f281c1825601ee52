#| expect: RuntimeError
import copy

import torch
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8))
params = {name: p.detach() for name, p in model.named_parameters()}
buffers = dict(model.named_buffers())


def loss_one(params, xi):
    return functional_call(model, (params, buffers), (xi.unsqueeze(0),)).sum()


x = torch.randn(5, 4)
model.eval()  # running statistics are read, not updated
print("eval mode:", tuple(vmap(grad(loss_one), in_dims=(None, 0))(params, x)["0.weight"].shape))
# replace_all_batch_norm_modules_ drops the running statistics, but one example per call in
# train mode is a batch of one
no_stats = copy.deepcopy(model).train()
torch.func.replace_all_batch_norm_modules_(no_stats)
try:
    vmap(grad(lambda p, xi: functional_call(no_stats, p, (xi.unsqueeze(0),)).sum()),
         in_dims=(None, 0))(params, x)
except ValueError as err:
    print("replace_all_batch_norm_modules_, train mode: ValueError:", err)
model.train()  # BatchNorm now updates its buffers in place during forward
vmap(grad(loss_one), in_dims=(None, 0))(params, x)
