import re
import subprocess
import sys

import torch

torch.manual_seed(0)


@torch.library.custom_op("demo::scale", mutates_args=())
def scale(x: torch.Tensor, k: float) -> torch.Tensor:
    return x * k


@scale.register_fake
def _(x, k):
    return torch.empty_like(x)


class Model(torch.nn.Module):
    def forward(self, x):
        return scale(x, 3.0)


torch.export.save(torch.export.export(Model(), (torch.randn(2),)), "with_op.pt2")
print("same process:", torch.export.load("with_op.pt2").module()(torch.ones(2)))

# A fresh process that never defines demo::scale, like a consumer that forgot the import.
consumer = "import torch; torch.export.load('with_op.pt2')"
res = subprocess.run([sys.executable, "-c", consumer], capture_output=True, text=True)
print("fresh process exit code:", res.returncode)
print(re.search(r"We failed to resolve \S+ to an operator", res.stderr).group())
print(re.search(r"Please import [^.]*\.", res.stderr).group())
print(res.stderr.strip().splitlines()[-1])
