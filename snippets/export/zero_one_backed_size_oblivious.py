import torch
import torch.fx.experimental._config as fx_config
from torch.export import Dim, export

torch.manual_seed(0)


class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


model = torch.nn.Linear(4, 3)
example = (torch.randn(1, 4),)  # the only example we have is a batch of one
spec = {"input": {0: Dim.DYNAMIC}}

try:
    export(model, example, dynamic_shapes=spec)
except ValueError as e:
    print("default:", str(e).splitlines()[1])

# Experimental: give input sizes a [0, inf] range instead of specialising 0/1.
with fx_config.patch(backed_size_oblivious=True):
    ep = export(model, example, dynamic_shapes=spec)
    print("backed_size_oblivious:", ep.range_constraints)
    print(ep.module()(torch.randn(5, 4)).shape, ep.module()(torch.randn(0, 4)).shape)

    # A size-1 example is no longer allowed to broadcast.
    try:
        export(Add(), (torch.ones(1, 3), torch.ones(4, 3)), dynamic_shapes=({0: Dim.DYNAMIC}, {0: Dim.DYNAMIC}))
    except RuntimeError as e:
        print(type(e).__name__, str(e).splitlines()[0])
