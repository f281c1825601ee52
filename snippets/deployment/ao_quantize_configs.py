#| devices: cpu
import copy
import io
import logging

# Quiet two import-time messages: torchao's CUDA-only kernels that a CPU torch cannot load, and
# torch's deprecation warning about torchao registering an Enum as a pytree constant.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torchao.quantization import (
    Int8DynamicActivationInt8WeightConfig,
    Int8WeightOnlyConfig,
    quantize_,
)


def make_model():
    return torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 256)
    ).eval()


class MatmulLog(TorchDispatchMode):
    """Records the ATen matmul ops a forward call reaches, and whether their inputs are float."""

    def __init__(self):
        super().__init__()
        self.ops, self.float_inputs = set(), set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.overloadpacket.__name__ in ("mm", "addmm", "_int_mm", "bmm", "linear"):
            self.ops.add(f"aten.{func.overloadpacket.__name__}")
            self.float_inputs.add(all(a.is_floating_point() for a in args if isinstance(a, torch.Tensor)))
        return func(*args, **(kwargs or {}))


def saved_bytes(m):
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    return buf.tell()


torch.manual_seed(0)
fp32 = make_model()
x = torch.randn(32, 512)
with torch.no_grad():
    ref = fp32(x)
print(f"fp32: weight type = {type(fp32[0].weight).__name__}, dtype = {fp32[0].weight.dtype}")

for name, config in [
    ("int8 weight-only", Int8WeightOnlyConfig()),
    ("int8 dynamic act + int8 weight", Int8DynamicActivationInt8WeightConfig()),
]:
    q = copy.deepcopy(fp32)
    returned = quantize_(q, config)  # in place: swaps each Linear's weight for a tensor subclass
    w = q[0].weight
    # oneDNN off: aten._int_mm then adds the int8 products in exact int32 on every CPU. With it
    # on, a CPU without AVX-512 VNNI (an AVX2 one) saturates 16-bit partial sums, and the dynamic
    # config's error here grows from about 1% to over 20%: the record would be the CPU's.
    torch.backends.mkldnn.enabled = False
    with torch.no_grad(), MatmulLog() as log:
        y = q(x)
    torch.backends.mkldnn.enabled = True
    rel = ((y - ref).norm() / ref.norm()).item()
    ratio = saved_bytes(q) / saved_bytes(fp32)
    print(f"{name}:")
    print(f"  quantize_ returned: {returned}")
    print(f"  weight type = {type(w).__name__}, reported dtype = {w.dtype}")
    print(f"  inner tensors = {w.__tensor_flatten__()[0]}")
    print(f"  saved state_dict size vs fp32: {round(ratio, 2)}x")
    print(f"  relative error < 2%: {rel < 0.02} | < 0.2%: {rel < 0.002}")
    print(f"  module is still nn.Linear: {type(q[0]) is torch.nn.Linear}")
    print(f"  matmul ops in a forward call: {sorted(log.ops)} | all inputs float: {sorted(log.float_inputs)}")
