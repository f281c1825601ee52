#| devices: cpu
import copy
import logging

# Same two import-time messages quieted as in the X86 snippet (torchao CUDA-only kernels, pytree Enum).
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
import torchao.quantization.pt2e.quantizer as ao_quantizers
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
    XNNPACKQuantizer,
    get_symmetric_quantization_config,
)

torch.manual_seed(0)

print("torchao.quantization.pt2e.quantizer has XNNPACKQuantizer:", hasattr(ao_quantizers, "XNNPACKQuantizer"))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(32, 64)
        self.fc2 = torch.nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = Net().eval()
gm = torch.export.export(copy.deepcopy(model), (torch.randn(64, 32),)).module()

quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
prepared = prepare_pt2e(gm, quantizer)
for _ in range(16):
    prepared(torch.randn(64, 32))
converted = convert_pt2e(prepared)

print("converted graph, in order:")
for n in converted.graph.nodes:
    if n.op == "call_function":
        print(f"  {n.name:34} {n.target}")
    elif n.op == "get_attr":
        w = converted.get_parameter(n.target) if "." in n.target else getattr(converted, n.target)
        print(f"  {n.name:34} get_attr -> {w.dtype}, shape {tuple(w.shape)}")

xs = [torch.randn(64, 32) for _ in range(16)]  # 1024 fresh rows, in the static batch of 64
with torch.no_grad():
    ref = torch.cat([model(x) for x in xs])
    got = torch.cat([converted(x) for x in xs])
rel = ((got - ref).norm() / ref.norm()).item()
print("relative error < 0.5%:", rel < 0.005, "| < 5%:", rel < 0.05)
print("same top-1 class on >= 90% of rows:", (got.argmax(1) == ref.argmax(1)).float().mean().item() >= 0.9)
