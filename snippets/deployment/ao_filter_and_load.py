#| devices: cpu
import logging
import subprocess
import sys

logging.disable(logging.WARNING)  # import torchao logs that its CUDA kernels did not load (CPU torch)
import torch  # noqa: E402
from torchao.quantization import Int8WeightOnlyConfig, quantize_  # noqa: E402

torch.manual_seed(0)

logging.disable(logging.NOTSET)

model = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))
# Keep the last layer (the head, fqn "2") in float: filter_fn sees each module and its name.
quantize_(model, Int8WeightOnlyConfig(), filter_fn=lambda m, fqn: isinstance(m, torch.nn.Linear) and fqn != "2")
print("weights after quantize_:", {k: type(v).__name__ for k, v in model.state_dict().items() if k.endswith("weight")})
torch.save(model.state_dict(), "quantized.pt")

LOAD = r"""
import logging, sys, torch
logging.disable(logging.WARNING)
if sys.argv[1] == "yes":
    import torchao  # registers its tensor subclasses as safe globals for weights_only loading
try:
    sd = torch.load("quantized.pt", weights_only=True)
    print("loaded:", type(sd["0.weight"]).__name__)
except Exception as e:
    print(type(e).__name__ + ":", str(e).split(",")[0])
"""
for imported in ("no", "yes"):
    out = subprocess.run([sys.executable, "-c", LOAD, imported], capture_output=True, text=True)
    print(f"fresh process, torchao imported: {imported} -> {(out.stdout or out.stderr).strip().splitlines()[-1]}")
