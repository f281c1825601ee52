#| devices: cpu
import glob
import logging
import re
import warnings

import numpy as np
import onnxruntime as ort
import torch
import torch.onnx.verification
from onnxscript import opset18 as op

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed" notices
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice


@torch.library.custom_op("demo::softclip", mutates_args=())
def softclip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return limit * torch.tanh(x / limit)


@softclip.register_fake
def _(x, limit):
    return torch.empty_like(x)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return softclip(self.fc(x), 3.0)


# The translation: same arguments as the op's schema, built from ONNX ops with onnxscript.
def softclip_to_onnx(x, limit: float):
    c = op.CastLike(op.Constant(value_float=limit), x)
    return op.Mul(c, op.Tanh(op.Div(x, c)))


model = Net().eval()
x = torch.randn(2, 4)
onnx_program = torch.onnx.export(
    model, (x,), verbose=False, report=True, verify=True, artifacts_dir="reports",
    custom_translation_table={torch.ops.demo.softclip.default: softclip_to_onnx})
print("ONNX ops:", [node.op_type for node in onnx_program.model.graph])

(report,) = glob.glob("reports/*.md")
text = open(report).read()
print("report file ends with:", report.rsplit("_", 1)[1])
print(text.split("```")[1].strip())
print("report sections:", re.findall(r"^## (.+)$", text, flags=re.M))

# What verify=True ran, called directly: ONNX Runtime against the ExportedProgram.
for info in torch.onnx.verification.verify_onnx_program(onnx_program):
    print(f"verify_onnx_program: output {info.name!r}, max_abs_diff < 1e-5: {info.max_abs_diff < 1e-5}")

onnx_program.save("softclip.onnx")
sess = ort.InferenceSession("softclip.onnx", providers=["CPUExecutionProvider"])
xb = torch.randn(2, 4) * 10  # large inputs, so the clipping matters
got = sess.run(None, {"x": xb.numpy()})[0]
print("ONNX Runtime vs eager on new inputs, max abs diff < 1e-5:",
      np.abs(got - model(xb).detach().numpy()).max() < 1e-5, "| |output| < 3:", bool(np.abs(got).max() < 3))
