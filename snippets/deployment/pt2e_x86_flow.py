#| devices: cpu
import collections
import copy
import logging

# Quiet two import-time messages: torchao's CUDA-only kernels that a CPU torch cannot load, and
# torch's deprecation warning about torchao registering an Enum as a pytree constant.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(32, 64)
        self.fc2 = torch.nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
model = Net().eval()
example = (torch.randn(64, 32),)  # batch 64 is static in the exported graph

# 1. capture: an ATen graph of the fp32 model
gm = torch.export.export(copy.deepcopy(model), example).module()

# 2. prepare: the quantizer annotates nodes, prepare_pt2e inserts observers
quantizer = xiq.X86InductorQuantizer()
quantizer.set_global(xiq.get_default_x86_inductor_quantization_config())
prepared = prepare_pt2e(gm, quantizer)
observers = collections.Counter(
    type(m).__name__ for n, m in prepared.named_modules() if "activation_post_process" in n
)
print("observers after prepare_pt2e:", dict(observers))

# 3. calibrate: run representative data through the observers
params_before = [p.detach().clone() for p in prepared.parameters()]
for _ in range(16):
    prepared(torch.randn(64, 32))
print(f"calibration changed any of the {len(params_before)} parameters:",
      any(not torch.equal(a, b) for a, b in zip(params_before, prepared.parameters(), strict=True)))

# 4. convert: observers become quantize/dequantize nodes
converted = convert_pt2e(prepared)
ops = collections.Counter(
    str(n.target) for n in converted.graph.nodes
    if n.op == "call_function" and "quantize" in str(n.target)
)
for name, count in sorted(ops.items()):
    print(f"{count} x {name}")
print("observers left:", sum("activation_post_process" in n for n, _ in converted.named_modules()))

# accuracy against fp32 on fresh data
xs = [torch.randn(64, 32) for _ in range(16)]  # 1024 fresh rows, in the static batch of 64
with torch.no_grad():
    ref = torch.cat([model(x) for x in xs])
    got = torch.cat([converted(x) for x in xs])
rel = ((got - ref).norm() / ref.norm()).item()
print("relative error < 0.5%:", rel < 0.005, "| < 5%:", rel < 0.05)
print("same top-1 class on >= 90% of rows:", (got.argmax(1) == ref.argmax(1)).float().mean().item() >= 0.9)
