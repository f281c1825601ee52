#| devices: cpu
import copy
import math
import logging

# Quiet two import-time messages: torchao's CUDA-only kernels that a CPU torch cannot load, and
# torch's deprecation warning about torchao registering an Enum as a pytree constant.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

torch.manual_seed(0)

model = torch.nn.Sequential(
    torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)
).eval()
shape = (64, 32)
serving = [torch.randn(shape) for _ in range(16)]  # what the model will see in production


def error_class(rel):
    return "< 5%" if rel < 0.05 else "5% to 50%" if rel < 0.5 else ">= 50%"


def ptq(calibration):
    gm = torch.export.export(copy.deepcopy(model), (torch.randn(shape),)).module()
    quantizer = xiq.X86InductorQuantizer()
    quantizer.set_global(xiq.get_default_x86_inductor_quantization_config())
    prepared = prepare_pt2e(gm, quantizer)
    for batch in calibration:
        prepared(batch)
    return convert_pt2e(prepared)


def input_scale(q):  # the scale of the first quantize node: the model's input
    first = next(n for n in q.graph.nodes if "quantize_per_tensor" in str(n.target))
    return first.args[1]


test = torch.randn(shape)
with torch.no_grad():
    ref = model(test)
good_scale = None
for name, calibration in [
    ("representative (same distribution)", [torch.randn(shape) for _ in range(16)]),
    ("too few: one batch", [torch.randn(shape)]),
    ("wrong scale: inputs x 0.01", [0.01 * torch.randn(shape) for _ in range(16)]),
    ("wrong scale: inputs x 100", [100 * torch.randn(shape) for _ in range(16)]),
    ("all zeros", [torch.zeros(shape) for _ in range(16)]),
]:
    q = ptq(calibration)
    good_scale = good_scale or input_scale(q)
    power = round(math.log10(input_scale(q) / good_scale))
    with torch.no_grad():
        rel = ((q(test) - ref).norm() / ref.norm()).item()
    print(f"{name:36}: input scale ~10^{power} x representative, error vs fp32 {error_class(rel)}")
