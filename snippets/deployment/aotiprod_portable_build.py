#| timeout: 300
#| devices: cpu
import json
import logging
import os
import subprocess
import sys
import warnings
import zipfile

import torch
from torch.export import Dim

torch.manual_seed(0)

warnings.filterwarnings("ignore", category=FutureWarning)  # internal pytree warning in 2.13

model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU()).eval()
with torch.no_grad():
    ep = torch.export.export(model, (torch.randn(2, 8),),
                             dynamic_shapes=({0: Dim("batch", min=1, max=64)},))
    # A second build of the same program: no vector ISA, and no lower-bound check.
    torch._inductor.aoti_compile_and_package(
        ep, package_path="portable.pt2",
        inductor_configs={"cpp.simdlen": 0, "aot_inductor.check_lowerbound": False})
    x1 = torch.randn(1, 8)
    torch.save({"x1": x1, "y1": model(x1)}, "reference.pt")

with zipfile.ZipFile("portable.pt2") as z:
    names = z.namelist()
    kernel = z.read(next(n for n in names if n.endswith(".cpp") and "kernel" in n)).decode()
    meta_name = next(n for n in names if n.endswith("_metadata.json") and "kernel" not in n)
    meta = json.loads(z.read(meta_name))
print("recorded AOTI_CPU_ISA:", meta["AOTI_CPU_ISA"])
print("kernel.cpp uses at::vec:", "at::vec::" in kernel)


class ShowMismatch(logging.Handler):  # print the loader's warning, hiding this machine's value
    def emit(self, record):
        key, _this_machine, recorded = record.args
        print("load logged:", record.msg % (key, "<this machine>", recorded))


log = logging.getLogger("torch.export.pt2_archive._package")
log.addHandler(ShowMismatch())
log.propagate = False
if torch._inductor.cpu_vec_isa.pick_vec_isa():  # this machine has a vector ISA, so they differ
    torch._inductor.aoti_load_package("portable.pt2")

# Checks on, in a fresh process: batch 1 now passes, because the lower bound is not checked.
SERVE = r"""
import torch
ref = torch.load("reference.pt")
runner = torch._inductor.aoti_load_package("portable.pt2")
out = runner(ref["x1"])
print("batch 1: max abs diff to eager < 1e-5:", (out - ref["y1"]).abs().max().item() < 1e-5)
try:
    runner(torch.randn(65, 8))
except RuntimeError as e:
    print("batch 65:", str(e).strip())
"""
env = dict(os.environ, AOTI_RUNTIME_CHECK_INPUTS="1")
res = subprocess.run([sys.executable, "-c", SERVE], env=env, capture_output=True, text=True)
print("fresh process, AOTI_RUNTIME_CHECK_INPUTS=1:")
print(res.stdout.rstrip() or res.stderr.strip().splitlines()[-1])

# The archive's own version is the one thing the Python loader refuses on.
with zipfile.ZipFile("portable.pt2") as src, zipfile.ZipFile("future.pt2", "w") as dst:
    for item in src.infolist():
        data = src.read(item.filename)
        dst.writestr(item, b"99" if item.filename.endswith("/archive_version") else data)
try:
    torch._inductor.aoti_load_package("future.pt2")
except ValueError as e:
    print("archive_version 99: ValueError:", e)
