#| devices: cpu
#| expect: RuntimeError
import warnings

import torch
from torch._export.converter import TS2EPConverter  # a private module in 2.13

warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.* says it is deprecated


class Grow(torch.nn.Module):
    def forward(self, x):
        while x.sum() < 10:  # the trip count depends on the values in x
            x = x * 2
        return x


legacy = torch.jit.script(Grow())
x = torch.ones(2)
print("TorchScript runs it:", legacy(x))

TS2EPConverter(legacy, (x,)).explain()  # lists the TorchScript nodes it cannot convert
try:
    TS2EPConverter(legacy, (x,)).convert()
except RuntimeError as e:
    print("caused by:", repr(e.__cause__))
    raise
