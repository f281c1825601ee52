#| devices: cpu
import logging

# Quiet torchao's import-time notices (CUDA-only kernels, an Enum pytree deprecation).
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch  # noqa: E402
import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq  # noqa: E402
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e  # noqa: E402

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(32, 64)
        self.head = torch.nn.Linear(64, 10)

    def forward(self, x):
        return self.head(torch.relu(self.fc1(x)))


def linears_fed_by_dequantize(keep_head_float):
    gm = torch.export.export(Net().eval(), (torch.randn(8, 32),)).module()
    quantizer = xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())
    if keep_head_float:
        quantizer.set_module_name_qconfig("head", None)  # None: leave this submodule in float
    prepared = prepare_pt2e(gm, quantizer)
    prepared(torch.randn(8, 32))  # calibrate
    converted = convert_pt2e(prepared)
    linears = [n for n in converted.graph.nodes if n.target is torch.ops.aten.linear.default]
    return [all("dequantize" in str(a.target) for a in n.args[:2]) for n in linears]


print("everything quantized, each linear's input and weight dequantized:", linears_fed_by_dequantize(False))
print("head kept in float:                                              ", linears_fed_by_dequantize(True))
