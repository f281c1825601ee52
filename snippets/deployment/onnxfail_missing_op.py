#| devices: cpu
import glob
import logging
import re
import warnings

import torch

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


try:
    torch.onnx.export(Net().eval(), (torch.randn(2, 4),), verbose=False,
                      report=True, artifacts_dir="reports")
except torch.onnx.OnnxExporterError as e:
    print("raised:", type(e).__name__, "| bases:", [b.__name__ for b in type(e).__mro__[1:3]])
    message = re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # drop the terminal colour codes
    print("first line:", message.splitlines()[0])
    summary = message.split("## Exception summary")[1].strip().splitlines()
    print("exception summary, innermost first:")
    for line in summary[:3]:
        print("  " + line.split(" See the stack")[0])

(report,) = glob.glob("reports/*.md")  # its name is a timestamp plus the step that failed
print("report file ends with:", report.rsplit("_", 1)[1])
text = open(report).read()
print("report sections:", re.findall(r"^## (.+)$", text, flags=re.M))
print(text.split("```")[1].strip())  # the step-by-step status block
grouped = text.split("Errors grouped by operator:")[1].strip().split("\n\n")[0]
print(grouped.split(". Example node")[0])
