#| timeout: 300
#| devices: cpu
import json
import os
import subprocess
import sys
import warnings
import zipfile

import torch
from torch.export import Dim

torch.manual_seed(0)

warnings.filterwarnings("ignore", category=FutureWarning)  # internal pytree warning in 2.13


class Scorer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 4)

    def forward(self, x, n: int):
        return torch.relu(self.lin(x)) * n


# Build side: export for batch 1..64 with n=3, compile, save a reference to compare against.
model = Scorer().eval()
with torch.no_grad():
    ep = torch.export.export(model, (torch.randn(2, 8), 3),
                             dynamic_shapes=({0: Dim("batch", min=1, max=64)}, None))
    torch._inductor.aoti_compile_and_package(
        ep, package_path="scorer.pt2",
        inductor_configs={"aot_inductor.metadata": {"model_version": "scorer-v7"}})
    x = torch.randn(5, 8)
    big = torch.randn(65, 8)
    torch.save({"x": x, "big": big, "y": model(x, 3), "y1": model(x[:1], 3),
                "y65": model(big, 3), "y_n5": model(x, 5)}, "reference.pt")

try:
    ep.module()(x, 5)
except AssertionError as e:
    print("build side, ep.module()(x, n=5):", e)

# Serve side: a fresh process, no model code, only torch and the two files.
SERVE = r"""
import torch
ref = torch.load("reference.pt")
runner = torch._inductor.aoti_load_package("scorer.pt2")
x = ref["x"]
cases = {
    "batch 5, n=3": ((x, 3), ref["y"]),
    "batch 1": ((x[:1], 3), ref["y1"]),
    "batch 65": ((ref["big"], 3), ref["y65"]),
    "float64": ((x.double(), 3), ref["y"]),
    "transposed": ((x.t().contiguous().t(), 3), ref["y"]),
    "n=5": ((x, 5), ref["y_n5"]),
}
for name, (args, want) in cases.items():
    try:
        out = runner(*args)
    except RuntimeError as e:
        print(f"  {name:13} RuntimeError: {str(e).strip().splitlines()[0]}")
        continue
    ok = (out.double() - want.double()).abs().max().item() < 1e-5
    print(f"  {name:13} ran, max abs diff to eager < 1e-5: {ok}")
print("  n=5 output equals the n=3 output:", torch.equal(runner(x, 5), runner(x, 3)))
"""
for value in [None, "1"]:
    env = {k: v for k, v in os.environ.items() if k != "AOTI_RUNTIME_CHECK_INPUTS"}
    if value:
        env["AOTI_RUNTIME_CHECK_INPUTS"] = value
    res = subprocess.run([sys.executable, "-c", SERVE], env=env, capture_output=True, text=True)
    print(f"fresh process, AOTI_RUNTIME_CHECK_INPUTS={value or 'unset'} (exit {res.returncode}):")
    print(res.stdout.rstrip() or res.stderr.strip().splitlines()[-1])

# What the package records about where it was built, and what it does not.
meta = torch._inductor.aoti_load_package("scorer.pt2").get_metadata()
print("metadata keys:", sorted(meta))
print("device key:", meta["AOTI_DEVICE_KEY"], "| model_version:", meta["model_version"])
print("recorded ISA is this machine's:",
      meta["AOTI_CPU_ISA"] == str(torch._inductor.cpu_vec_isa.pick_vec_isa()).upper())
with zipfile.ZipFile("scorer.pt2") as z:
    names = z.namelist()
    print("top-level records:", sorted({n.split("/", 1)[1] for n in names if n.count("/") == 1}))
    kernel = z.read(next(n for n in names if n.endswith(".cpp") and "kernel" in n)).decode()
    print("kernel.cpp uses at::vec:", "at::vec::" in kernel)
    print("archive_version:", z.read(next(n for n in names if n.endswith("/archive_version"))).decode())
    version = torch.__version__.split("+")[0].encode()  # b"2.13.0"
    meta_text = b"".join(z.read(n) for n in names if n.endswith((".json", "version", "format")))
    print("torch version in metadata or archive records:", version in meta_text)
    print("torch version in any file of the package:", any(version in z.read(n) for n in names))
