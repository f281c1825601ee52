#| devices: cpu
import torch
from torch.export import Dim, export


class SkipFive(torch.nn.Module):
    def forward(self, x):
        if x.shape[0] == 5:  # a branch on a dynamic size, decided from the example (4)
            return x * 0
        return x + 1


ep = export(SkipFive(), (torch.ones(4),), dynamic_shapes={"x": {0: Dim.AUTO}})
print("range_constraints:", ep.range_constraints)
print(ep.graph_module.code.strip())

m = ep.module()
print("size 6:", m(torch.ones(6)))
try:
    m(torch.ones(5))  # inside the range, but the traced branch assumed size != 5
except AssertionError as e:
    print("size 5: AssertionError:", e)

# With a named Dim the same assumption is a constraint violation at export time.
try:
    export(SkipFive(), (torch.ones(4),), dynamic_shapes={"x": {0: Dim("n", max=64)}})
except torch._dynamo.exc.UserError as e:
    print("named Dim:", e.msg.splitlines()[1].strip())
