#| devices: cpu
import inspect
import logging
import warnings

import numpy as np
import onnxruntime as ort
import torch
from torch.export import Dim

torch.manual_seed(0)

# Quiet two harmless notices: "torchvision is not installed. Skipping torchvision::nms" (and
# three more ops) from the ONNX op registry, and an internal pytree FutureWarning.
logging.getLogger("torch.onnx").setLevel(logging.ERROR)
warnings.filterwarnings("ignore", category=FutureWarning)

params = inspect.signature(torch.onnx.export).parameters
print("torch.onnx.export defaults: dynamo =", params["dynamo"].default,
      "| opset_version =", params["opset_version"].default)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        return torch.nn.functional.gelu(self.fc2(torch.relu(self.fc1(x))))


model = Net().eval()
x = torch.randn(3, 8)
onnx_program = torch.onnx.export(
    model, (x,), dynamic_shapes={"x": {0: Dim("batch", min=1, max=128)}}, verbose=False)

print("returned:", type(onnx_program).__module__ + "." + type(onnx_program).__name__)
print("  .model is", type(onnx_program.model).__module__ + "." + type(onnx_program.model).__name__)
print("  .exported_program is", type(onnx_program.exported_program).__name__)
graph = onnx_program.model.graph
for v in graph.inputs:
    print(f"  input  {v.name}: {v.dtype.name} {list(v.shape)}")
for v in graph.outputs:
    print(f"  output {v.name}: {v.dtype.name} {list(v.shape)}")
print("  opset imports:", dict(onnx_program.model.opset_imports))
print("  ONNX ops:", sorted({node.op_type for node in graph}))
print("  initializers (weights):", sorted(graph.initializers))

onnx_program.save("net.onnx")
sess = ort.InferenceSession("net.onnx", providers=["CPUExecutionProvider"])
for batch in (1, 37):
    xb = torch.randn(batch, 8)
    got = sess.run(None, {"x": xb.numpy()})[0]
    want = model(xb).detach().numpy()
    print(f"batch {batch:2}: ORT output {got.shape}, max abs diff < 1e-5: {np.abs(got - want).max() < 1e-5}")

# ONNXProgram is callable with torch tensors: it runs ONNX Runtime underneath.
(out,) = onnx_program(x)
print("onnx_program(x) is a", type(out).__name__, "| matches eager:", torch.allclose(out, model(x), atol=1e-5))
