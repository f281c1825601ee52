#| devices: cpu
import glob
import logging
import warnings

import torch
import torch.onnx.verification
from onnxscript import opset18 as op

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed" notices
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice

# Collect what the exporter's core logs at WARNING, to print it without the numbers.
caught = []
core_log = logging.getLogger("torch.onnx._internal.exporter._core")
core_log.setLevel(logging.WARNING)
core_log.addHandler(type("Keep", (logging.Handler,), {"emit": lambda self, r: caught.append(r.getMessage())})())
core_log.propagate = False


@torch.library.custom_op("demo::softclip", mutates_args=())
def softclip(x: torch.Tensor, limit: float) -> torch.Tensor:
    return limit * torch.tanh(x / limit)


@softclip.register_fake
def _(x, limit):
    return torch.empty_like(x)


class Net(torch.nn.Module):
    def forward(self, x):
        return softclip(x, 3.0)


def softclip_wrong(x, limit: float):  # forgot to scale back: tanh(x / limit)
    return op.Tanh(op.Div(x, op.CastLike(op.Constant(value_float=limit), x)))


onnx_program = torch.onnx.export(
    Net().eval(), (torch.randn(2, 4) * 10,), verbose=False, verify=True, report=True, artifacts_dir="reports",
    custom_translation_table={torch.ops.demo.softclip.default: softclip_wrong})
print("export returned:", type(onnx_program).__name__, "(no exception)")
for message in caught:
    print("logged warning:", message.split(" of ")[0] + " of ...")
(report,) = glob.glob("reports/*.md")
print("report file ends with:", report.rsplit("_", 1)[1])
print(open(report).read().split("```")[1].strip().splitlines()[-1])

(info,) = torch.onnx.verification.verify_onnx_program(onnx_program)
print(f"verify_onnx_program: max_abs_diff < 1e-5: {info.max_abs_diff < 1e-5}")
