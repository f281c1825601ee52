#| devices: cpu
import warnings

import torch
from torch._export.converter import TS2EPConverter  # private in 2.13

warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.* warns it is deprecated


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # TorchScript compiled this branch
            return x * 2
        return -x


# An existing TorchScript artifact, as a team migrating off torch.jit would have one.
torch.jit.save(torch.jit.script(Gate()), "gate.pt")
legacy = torch.jit.load("gate.pt")

ep = TS2EPConverter(legacy, (torch.ones(3),)).convert()
print(type(ep).__name__)
print(ep.graph_module.code.strip())
m = ep.module()
print("sum > 0: ", m(torch.ones(3)))
print("sum <= 0:", m(-torch.ones(3)))
