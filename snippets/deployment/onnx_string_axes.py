#| devices: cpu
import logging
import warnings

import torch

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed" notices
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice

model = torch.nn.Linear(8, 4).eval()
x = torch.randn(3, 8)
spec = {"input": {0: "batch"}}  # nn.Linear.forward(input); a string names the axis

onnx_program = torch.onnx.export(model, (x,), dynamic_shapes=spec, verbose=False)
(inp,) = onnx_program.model.graph.inputs
print("torch.onnx.export: input", inp.name, list(inp.shape))
(out,) = onnx_program(torch.randn(5, 8))  # runs ONNX Runtime
print("batch 5 through ONNX Runtime:", tuple(out.shape))

try:
    torch.export.export(model, (x,), dynamic_shapes=spec)
except Exception as e:
    print("torch.export.export, same spec:", type(e).__name__, "-", str(e).splitlines()[0])
