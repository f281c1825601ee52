#| devices: cpu
#| timeout: 240
import copy
import logging

# Quiet two import-time messages: torchao's CUDA-only kernels that a CPU torch cannot load, and
# torch's deprecation warning about torchao registering an Enum as a pytree constant.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
from torchao.quantization.pt2e import move_exported_model_to_eval
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e, prepare_qat_pt2e
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)

torch.manual_seed(0)

fp32 = torch.nn.Sequential(
    torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)
)
shape = (64, 32)
test = torch.randn(shape)
with torch.no_grad():
    ref = fp32.eval()(test)


def config(is_qat):  # 4-bit weight range (-7..7) stored in int8, int8 activations
    return get_symmetric_quantization_config(
        is_per_channel=False, is_qat=is_qat, weight_qmin=-7, weight_qmax=7
    )


def error(m):
    with torch.no_grad():
        return ((m(test) - ref).norm() / ref.norm()).item()


def error_class(rel):
    return "< 2%" if rel < 0.02 else "2% to 5%" if rel < 0.05 else "5% to 20%" if rel < 0.2 else ">= 20%"


# PTQ: observe, calibrate, convert; no weight changes
gm = torch.export.export(copy.deepcopy(fp32).eval(), (test,)).module()
ptq = prepare_pt2e(gm, XNNPACKQuantizer().set_global(config(False)))
for _ in range(16):
    ptq(torch.randn(shape))
ptq = convert_pt2e(ptq)
ptq_error = error(ptq)
print("PTQ, converted:", error_class(ptq_error))

# QAT: fake-quantize in forward, train the weights to fit fp32's outputs (distillation)
gm = torch.export.export(copy.deepcopy(fp32).train(), (test,)).module()
qat = prepare_qat_pt2e(gm, XNNPACKQuantizer().set_global(config(True)))
fake_quant_modules = {type(m).__name__ for n, m in qat.named_modules() if "activation_post_process" in n}
print("modules prepare_qat_pt2e inserted:", sorted(fake_quant_modules))
opt = torch.optim.Adam(qat.parameters(), lr=1e-3)
print("QAT, fake-quantized, before training:", error_class(error(qat)))
for step in range(100):
    x = torch.randn(shape)
    with torch.no_grad():
        target = fp32(x)
    loss = torch.nn.functional.mse_loss(qat(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("QAT, fake-quantized, after 100 steps:", error_class(error(qat)))
move_exported_model_to_eval(qat)
qat = convert_pt2e(qat)
print("QAT, converted:", error_class(error(qat)))
print("QAT's converted error lower than PTQ's:", error(qat) < ptq_error)
