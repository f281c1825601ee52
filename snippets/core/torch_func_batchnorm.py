#| expect: RuntimeError
import torch
from torch.func import functional_call, grad, vmap

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8))
params = {name: p.detach() for name, p in model.named_parameters()}
buffers = dict(model.named_buffers())


def loss_one(params, xi):
    return functional_call(model, (params, buffers), (xi.unsqueeze(0),)).sum()


x = torch.randn(5, 4)
model.eval()  # running statistics are read, not updated
print("eval mode:", tuple(vmap(grad(loss_one), in_dims=(None, 0))(params, x)["0.weight"].shape))
model.train()  # BatchNorm now updates its buffers in place during forward
vmap(grad(loss_one), in_dims=(None, 0))(params, x)
