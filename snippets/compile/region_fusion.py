import os
import re
import tempfile

import torch
from torch._inductor.utils import run_and_get_code

os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()  # cold cache, also under plain python
torch.manual_seed(0)


class Block(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x * 2 + 1)  # pointwise only: nothing stops fusion inside a graph


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block() for _ in range(4))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def kernel_calls(code):
    """The generated kernels that one run of the output code calls, in order."""
    return re.findall(r"^\s+(cpp_fused_\w+)\(", code, flags=re.M)


x = torch.randn(1024)
model = Model()
expected = model(x)

torch._dynamo.reset()
_, codes = run_and_get_code(torch.compile(model), x)
print(f"whole model: output code modules {len(codes)}, kernels per forward {kernel_calls(codes[0])}")

torch._dynamo.reset()
for block in model.blocks:
    block.compile()  # regional: each block's forward compiled on its own
out, codes = run_and_get_code(model, x)
print(f"each block compiled: output code modules {len(codes)}, "
      f"kernels per block call {kernel_calls(codes[0])}, block calls per forward {len(model.blocks)}")
print("regional model matches eager:", torch.allclose(out, expected))
