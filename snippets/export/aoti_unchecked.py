#| timeout: 600
#| devices: cpu
import json
import logging
import subprocess
import sys
import warnings
import zipfile

import torch

warnings.filterwarnings("ignore", category=FutureWarning)  # internal pytree warning in 2.13

OP = """
import torch

@torch.library.custom_op("demo::double", mutates_args=())
def double(x: torch.Tensor) -> torch.Tensor:
    return x * 2

@double.register_fake
def _(x):
    return torch.empty_like(x)
"""
exec(OP)  # defines demo::double here; the consumers below may or may not run this code


class Model(torch.nn.Module):
    def forward(self, x, n: int):
        return torch.ops.demo.double(x) * n


x = torch.ones(2)
with torch.no_grad():
    ep = torch.export.export(Model(), (x, 3))
    torch._inductor.aoti_compile_and_package(ep, package_path="model.pt2")

# 1. A changed int: the exported program refuses it, the compiled one ignores it.
try:
    ep.module()(x, 4)
except AssertionError as e:
    print("ep.module()(x, 4):  AssertionError:", e)
runner = torch._inductor.aoti_load_package("model.pt2")
print("compiled(x, 4):    ", runner(x, 4), " eager:", Model()(x, 4))

# 2. The build metadata is recorded, but loading does not check it.
with zipfile.ZipFile("model.pt2") as src, zipfile.ZipFile("edited.pt2", "w") as dst:
    for item in src.infolist():
        data = src.read(item.filename)
        if item.filename.endswith("_metadata.json"):
            meta = json.loads(data)
            meta.update(AOTI_CPU_ISA="NOT_A_REAL_ISA", AOTI_MACHINE="not-a-machine")
            data = json.dumps(meta).encode()
        dst.writestr(item, data)


class ShowMismatch(logging.Handler):  # print the loader's warning; hide this machine's values
    def emit(self, record):
        key, _this_machine, recorded = record.args
        print("  load logged:", record.msg % (key, "<this machine>", recorded))


loader_log = logging.getLogger("torch.export.pt2_archive._package")
loader_log.addHandler(ShowMismatch())
loader_log.propagate = False
edited = torch._inductor.aoti_load_package("edited.pt2")
meta = edited.get_metadata()
print("edited metadata:", meta["AOTI_CPU_ISA"], meta["AOTI_MACHINE"], "-> runs:", edited(x, 3))

# 3. A Python custom op needs Python, and its definition, in the serving process.
run = "\nr = torch._inductor.aoti_load_package('model.pt2'); print(r(torch.ones(2), 3))"
for label, code in [("without the op's code", "import torch" + run), ("with it", OP + run)]:
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    out = res.stdout.strip() or res.stderr.strip().splitlines()[-1]
    print(f"fresh process, {label}: {out}")
