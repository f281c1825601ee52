#| devices: cpu
#| timeout: 240
import glob
import logging
import os
import subprocess
import sys
import warnings
import zipfile

import numpy as np
import torch
from torch.export import Dim

torch.manual_seed(0)

# Quiet import-time notices that are not about this model: torchao (imported by ExecuTorch) logs
# that its CUDA-only kernels cannot load on a CPU torch, torch's pytree logs an Enum notice, the
# ONNX registry logs "torchvision is not installed", and pytree raises a FutureWarning.
for name in ("torchao", "torch.utils._pytree", "torch.onnx"):
    logging.getLogger(name).setLevel(logging.ERROR)
warnings.filterwarnings("ignore", category=FutureWarning)

MODEL_SRC = """
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 4)
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
"""
with open("net_src.py", "w") as f:  # the torch.compile path below needs the model's source
    f.write(MODEL_SRC)
sys.path.insert(0, os.getcwd())
from net_src import Net

model = Net().eval()
torch.save(model.state_dict(), "net_weights.pt")
x = torch.randn(3, 16)
np.save("x.npy", x.numpy())
np.save("ref.npy", model(x).detach().numpy())  # the eager answer every path must match

batch = Dim("batch", min=1, max=64)
with torch.no_grad():
    ep = torch.export.export(model, (x,), dynamic_shapes={"x": {0: batch}})

# AOTInductor: C++ compiled ahead of time, packaged in a .pt2
torch._inductor.aoti_compile_and_package(ep, package_path="net_aoti.pt2")

# ExecuTorch: a .pte program, the linear layers delegated to XNNPACK
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower

with open("net.pte", "wb") as f:
    to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()]).to_executorch().write_to_file(f)

# ONNX, through the dynamo-based exporter
torch.onnx.export(model, (x,), "net.onnx", dynamic_shapes={"x": {0: batch}}, verbose=False)

# TorchScript, the legacy path
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.jit.save(torch.jit.script(model), "net_ts.pt")
print("TorchScript in 2.13:", *[f"{w.category.__name__}: {w.message}" for w in caught], sep="\n  ")

# Each artifact is loaded and run in a fresh interpreter that never sees this script.
LOADERS = {
    "AOTInductor .pt2": "import torch\n"
    "out = torch._inductor.aoti_load_package('net_aoti.pt2')(torch.from_numpy(x)).numpy()",
    "ExecuTorch .pte": "import torch\nfrom executorch.runtime import Runtime\n"
    "m = Runtime.get().load_program('net.pte').load_method('forward')\n"
    "out = m.execute([torch.from_numpy(x)])[0].numpy()",
    "ONNX Runtime .onnx": "import onnxruntime as ort\n"
    "s = ort.InferenceSession('net.onnx', providers=['CPUExecutionProvider'])\n"
    "out = s.run(None, {s.get_inputs()[0].name: x})[0]",
    "TorchScript .pt": "import warnings; warnings.simplefilter('ignore')\nimport torch\n"
    "out = torch.jit.load('net_ts.pt')(torch.from_numpy(x)).detach().numpy()",
    "torch.compile (source)": "import torch\nfrom net_src import Net\n"  # no artifact: code + weights
    "m = Net().eval(); m.load_state_dict(torch.load('net_weights.pt'))\n"
    "out = torch.compile(m)(torch.from_numpy(x)).detach().numpy()",
}
CHECK = """
mods = [m for m in ("torch", "torch._inductor", "onnxruntime", "executorch") if m in sys.modules]
ok = np.abs(out - np.load('ref.npy')).max() < 1e-5
print(f"imported {', '.join(mods)}; matches eager (max abs diff < 1e-5): {ok}")
"""
print("fresh process per artifact:")
for name, body in LOADERS.items():
    code = "import sys, numpy as np\nx = np.load('x.npy')\n" + body + CHECK
    # stderr is dropped: ExecuTorch's CPU probe writes machine-specific notes there
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    print(f"  {name:23}", done.stdout.strip() or "failed: " + done.stderr.strip().splitlines()[-1])


def links_libtorch(path):  # the shared libraries an ELF file names as NEEDED
    dyn = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    return any("[libtorch" in line for line in dyn.splitlines() if "(NEEDED)" in line)


with zipfile.ZipFile("net_aoti.pt2") as z:
    so = next(n for n in z.namelist() if n.endswith(".so"))
    with open("aoti_model.so", "wb") as f:
        f.write(z.read(so))
import executorch
import onnxruntime

et_lib = list(executorch.__path__)[0]  # a namespace package: no __file__
ort_capi = os.path.join(os.path.dirname(onnxruntime.__file__), "capi")
print("native library links libtorch?")
for label, path in [("AOTInductor model .so (in the .pt2)", "aoti_model.so"),
                    ("ExecuTorch core runtime libexecutorch.so", f"{et_lib}/lib/libexecutorch.so"),
                    ("ExecuTorch Python bindings _C.so", glob.glob(f"{et_lib}/extension/pybindings/_C.*.so")[0]),
                    ("ONNX Runtime libonnxruntime.so", f"{ort_capi}/libonnxruntime.so.{onnxruntime.__version__}")]:
    print(f"  {label:42} {links_libtorch(path)}")
