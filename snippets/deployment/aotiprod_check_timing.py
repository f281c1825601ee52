#| timeout: 600
#| devices: cpu
import os
import subprocess
import sys
import warnings

import torch
from torch.export import Dim

torch.manual_seed(0)

warnings.filterwarnings("ignore", category=FutureWarning)  # internal pytree warning in 2.13

model = torch.nn.Linear(8, 4).eval()
with torch.no_grad():
    ep = torch.export.export(model, (torch.randn(2, 8),), dynamic_shapes=({0: Dim("batch", max=64)},))
    torch._inductor.aoti_compile_and_package(ep, package_path="model.pt2")

# Each case is a fresh serving process that starts WITHOUT the variable and sets it later.
SERVE = r"""
import os, sys, torch
runner = torch._inductor.aoti_load_package("model.pt2")
if sys.argv[1] == "after a first call":
    runner(torch.randn(5, 8))
os.environ["AOTI_RUNTIME_CHECK_INPUTS"] = "1"
try:
    runner(torch.randn(65, 8))
    print("batch 65 ran")
except RuntimeError as e:
    print("batch 65 refused:", str(e).strip().splitlines()[0])
"""
env = {k: v for k, v in os.environ.items() if k != "AOTI_RUNTIME_CHECK_INPUTS"}
for case in ("after loading, before any call", "after a first call"):
    res = subprocess.run([sys.executable, "-c", SERVE, case], env=env, capture_output=True, text=True)
    print(f"variable set {case}: {res.stdout.strip() or res.stderr.strip().splitlines()[-1]}")
