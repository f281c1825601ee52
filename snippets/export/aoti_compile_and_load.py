#| timeout: 600
import collections
import os
import subprocess
import sys
import warnings
import zipfile

import torch
from torch.export import Dim

torch.manual_seed(0)

device = os.environ.get("SNIPPET_DEVICE", "cpu")
# Hide an internal pytree FutureWarning that torch 2.13 emits while compiling.
warnings.filterwarnings("ignore", category=FutureWarning)


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 4)

    def forward(self, x):
        return torch.relu(self.lin(x))


model = Tiny().to(device).eval()
x = torch.randn(2, 8, device=device)
with torch.no_grad():
    ep = torch.export.export(model, (x,), dynamic_shapes={"x": {0: Dim("batch", min=1, max=32)}})
    torch._inductor.aoti_compile_and_package(ep, package_path="tiny.pt2")

runner = torch._inductor.aoti_load_package("tiny.pt2")  # no Python model class needed
print("matches eager:", torch.allclose(runner(x), model(x)))
print("batch 5 ->", tuple(runner(torch.randn(5, 8, device=device)).shape))
print("batch 40 ->", tuple(runner(torch.randn(40, 8, device=device)).shape), "(max was 32)")
print("built for:", runner.get_metadata()["AOTI_DEVICE_KEY"])

with zipfile.ZipFile("tiny.pt2") as z:
    names = z.namelist()
generated = [n.rsplit("/", 1)[1] for n in names if "/aotinductor/" in n]
kinds = collections.Counter(name.partition(".")[2] for name in generated)
print("generated files:", dict(sorted(kinds.items())))
print("separate weight files:", [n for n in names if "/weights/" in n])

# A fresh process with no model code. Shape checks are off unless this variable is set.
check = f"""
import torch
runner = torch._inductor.aoti_load_package("tiny.pt2")
for batch in (40, 1):
    try:
        runner(torch.randn(batch, 8, device="{device}"))
        print(f"batch {{batch}}: ran")
    except RuntimeError as e:
        print(f"batch {{batch}}: RuntimeError:", str(e).strip())
"""
env = dict(os.environ, AOTI_RUNTIME_CHECK_INPUTS="1")
res = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True)
for line in res.stdout.splitlines():
    print("with AOTI_RUNTIME_CHECK_INPUTS=1,", line)
