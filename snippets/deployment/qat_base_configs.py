#| devices: cpu
import logging

logging.disable(logging.WARNING)  # import torchao logs that its CUDA kernels did not load (CPU torch)
import torch  # noqa: E402
from torchao.quantization import (  # noqa: E402
    Float8DynamicActivationFloat8WeightConfig,
    Int4WeightOnlyConfig,
    Int8DynamicActivationInt8WeightConfig,
    Int8DynamicActivationIntxWeightConfig,
    Int8WeightOnlyConfig,
    IntxWeightOnlyConfig,
    quantize_,
)
from torchao.quantization.qat import QATConfig  # noqa: E402

torch.manual_seed(0)

logging.disable(logging.NOTSET)
# a deprecation notice torchao's float8 code triggers in torch 2.13's pytree, when QAT imports it
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

candidates = [
    Int4WeightOnlyConfig(group_size=32),
    IntxWeightOnlyConfig(weight_dtype=torch.int4),
    Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4),
    Float8DynamicActivationFloat8WeightConfig(),
    Int8WeightOnlyConfig(),
    Int8DynamicActivationInt8WeightConfig(),
]
for base_config in candidates:
    model = torch.nn.Sequential(torch.nn.Linear(64, 64))
    try:
        quantize_(model, QATConfig(base_config, step="prepare"))
        print(f"{type(base_config).__name__:41} accepted: {type(model[0]).__name__}")
    except (ValueError, AssertionError) as e:
        print(f"{type(base_config).__name__:41} {type(e).__name__}: {str(e).split(':')[0]}")
