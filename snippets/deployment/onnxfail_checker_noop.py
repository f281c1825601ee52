#| devices: cpu
import glob
import logging
import warnings

import onnx.checker
import onnx.shape_inference
import torch
from onnxscript import opset18 as op

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.CRITICAL)  # notices, and ONNX Runtime's load error
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice


@torch.library.custom_op("demo::shift", mutates_args=())
def shift(x: torch.Tensor) -> torch.Tensor:
    return x + 1


@shift.register_fake
def _(x):
    return torch.empty_like(x)


class Net(torch.nn.Module):
    def forward(self, x):
        return shift(x)


def shift_bad(x):  # adds an int64 constant to a float tensor: ONNX's Add needs one type
    return op.Add(x, op.Constant(value_int=1))


onnx_program = torch.onnx.export(
    Net().eval(), (torch.randn(2, 4),), verbose=False, verify=True, report=True, artifacts_dir="reports",
    custom_translation_table={torch.ops.demo.shift.default: shift_bad})
(report,) = glob.glob("reports/*.md")
checklist = open(report).read().split("```")[1].strip().splitlines()
print("\n".join(line for line in checklist if "onnx.checker" in line or "Runtime" in line))

for full_check in (False, True):
    try:
        onnx.checker.check_model(onnx_program.model_proto, full_check=full_check)
        print(f"onnx.checker.check_model(full_check={full_check}): passes")
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        print(f"onnx.checker.check_model(full_check={full_check}): {type(e).__name__}: {str(e).splitlines()[0]}")
