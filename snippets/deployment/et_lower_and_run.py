#| devices: cpu
#| timeout: 240
import contextlib
import logging
import os
import sys
import tempfile
import warnings

# ExecuTorch imports torchao: hide its log about CUDA-only kernels this CPU build cannot load,
# and torch's log about the Enum torchao registers with pytree. Both are harmless here.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
warnings.filterwarnings("ignore", category=FutureWarning)  # torch's pytree LeafSpec notice

import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime

torch.manual_seed(0)


@contextlib.contextmanager
def runtime_stderr(lines):
    """The C++ runtime logs to file descriptor 2: capture it, keep the lines."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+") as f:
        os.dup2(f.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            lines.extend(f.read().splitlines())


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 8 * 8, 64)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).flatten(1))


model = Net().eval()
x = torch.randn(1, 3, 8, 8)

# 1. Export, hand XNNPACK what it supports, emit the ExecuTorch program, write the .pte.
ep = torch.export.export(model, (x,))
edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
program = edge.to_executorch()
with open("net.pte", "wb") as f:
    program.write_to_file(f)

# 2. What the .pte holds.
plan = program.executorch_program.execution_plan
print("methods:", [p.name for p in plan])
print("delegates:", [d.id for d in plan[0].delegates])
print("operators left to ExecuTorch's own kernels:", [op.name for op in plan[0].operators])
weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
print(f"file size / fp32 weight bytes: {os.path.getsize('net.pte') / weight_bytes:.1f}x")

# 3. Load and run it with ExecuTorch's runtime (C++, through its Python bindings).
log = []
with runtime_stderr(log):
    runtime = Runtime.get()
    has_xnnpack = runtime.backend_registry.is_available("XnnpackBackend")
    loaded = runtime.load_program("net.pte")
    forward = loaded.load_method("forward")
    out = forward.execute([x])[0]
    try:
        forward.execute([torch.randn(2, 3, 8, 8)])  # exported with batch 1, no dynamic_shapes
    except RuntimeError as e:
        error = f"RuntimeError: {e}"
print("runtime has XnnpackBackend:", has_xnnpack)
print("program methods:", loaded.method_names)
meta = forward.metadata
print("input:", meta.input_tensor_meta(0))
print("output:", meta.output_tensor_meta(0))
with torch.no_grad():
    ref = model(x)
print("max abs diff vs eager < 1e-5:", (out - ref).abs().max().item() < 1e-5)
print("batch 2:", error)
print("runtime log, cpuinfo lines left out:")
for line in log:
    if "cpuinfo" not in line:
        print("   ", line)
