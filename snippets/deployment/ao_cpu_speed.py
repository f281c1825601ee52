#| devices: cpu
#| timeout: 240
import copy
import logging

# Quiet two import-time messages: torchao's CUDA-only kernels that a CPU torch cannot load, and
# torch's deprecation warning about torchao registering an Enum as a pytree constant.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
from torch.utils.benchmark import Timer
from torchao.quantization import (
    Int8DynamicActivationInt8WeightConfig,
    Int8WeightOnlyConfig,
    quantize_,
)

torch.manual_seed(0)

fp32 = torch.nn.Sequential(
    torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024)
).eval()
models = {"fp32": fp32}
for name, config in [
    ("int8 weight-only", Int8WeightOnlyConfig()),
    ("int8 dyn act + int8 weight", Int8DynamicActivationInt8WeightConfig()),
]:
    models[name] = copy.deepcopy(fp32)
    quantize_(models[name], config)

for batch in (1, 256):
    x = torch.randn(batch, 1024)
    best = dict.fromkeys(models, float("inf"))
    with torch.no_grad():
        for _ in range(5):  # interleave the models, keep each one's best median
            for name, m in models.items():
                # Timer uses num_threads=1 by default: one thread against one thread
                t = Timer("m(x)", globals={"m": m, "x": x}).blocked_autorange(min_run_time=0.2)
                best[name] = min(best[name], t.median)
    for name in list(models)[1:]:
        ratio = best["fp32"] / best[name]
        # Faster at all, not by how much: the margin is the CPU's (AVX-512 VNNI makes dynamic
        # int8 at batch 256 over 1.5x faster, AVX2 about 1.3x), and the record must not be.
        print(f"batch {batch:3}, {name:26}: faster than fp32: {ratio > 1}")
