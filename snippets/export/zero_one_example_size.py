import torch
from torch.export import Dim, export

torch.manual_seed(0)


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * 2


def input_shape(ep):
    return [tuple(n.meta["val"].shape) for n in ep.graph.nodes if n.op == "placeholder"]


one = (torch.randn(1, 3),)
# Example batch of 1 with Dim.AUTO: the dimension becomes the constant 1, with a logged warning.
ep = export(Scale(), one, dynamic_shapes={"x": {0: Dim.AUTO}})
print("example 1, AUTO   :", input_shape(ep), ep.range_constraints)
try:
    ep.module()(torch.randn(5, 3))
except AssertionError as e:
    print("  batch 5 ->", e)

# The same example with Dim.DYNAMIC or a named Dim is refused.
try:
    export(Scale(), one, dynamic_shapes={"x": {0: Dim.DYNAMIC}})
except ValueError as e:
    print("example 1, DYNAMIC:", str(e).splitlines()[1])
try:
    export(Scale(), one, dynamic_shapes={"x": {0: Dim("batch")}})
except torch._dynamo.exc.UserError as e:
    print("example 1, named  :", e.msg.splitlines()[1].split(". If")[0].strip())

# An example batch of 2 gives a symbol whose range starts at 2.
ep = export(Scale(), (torch.randn(2, 3),), dynamic_shapes={"x": {0: Dim.AUTO}})
print("example 2, AUTO   :", input_shape(ep), ep.range_constraints)
