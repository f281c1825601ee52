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
from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
from executorch.exir.passes import MemoryPlanningPass
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
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        return torch.cumsum(torch.relu(self.fc(x)), dim=1)


batch = torch.export.Dim("batch", max=8)
ep = torch.export.export(Net().eval(), (torch.randn(2, 16),), dynamic_shapes={"x": {0: batch}})

configs = {
    "default plan": None,
    "alloc_graph_input=False": ExecutorchBackendConfig(
        memory_planning_pass=MemoryPlanningPass(alloc_graph_input=False)),
}
for label, config in configs.items():
    edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
    program = edge.to_executorch(config)
    plan = program.executorch_program.execution_plan[0]
    print(f"== {label}: non_const_buffer_sizes = {plan.non_const_buffer_sizes}")
    for node in program.exported_program().graph.nodes:
        spec = node.meta.get("spec")
        if hasattr(spec, "mem_id"):
            where = "not planned" if spec.mem_id is None else f"buffer {spec.mem_id} @ {spec.mem_offset}"
            print(f"    {node.name:20} {str(tuple(spec.shape)):8} {spec.allocated_memory:4} bytes, {where}")
    with open(f"{label}.pte", "wb") as f:
        program.write_to_file(f)

log = []
with runtime_stderr(log):
    forward = Runtime.get().load_program("default plan.pte").load_method("forward")
    shapes = {}
    for b in (3, 8, 9):
        try:
            shapes[b] = tuple(forward.execute([torch.randn(b, 16)])[0].shape)
        except RuntimeError as e:
            shapes[b] = f"RuntimeError: {e}"
print("input as the runtime sees it:", forward.metadata.input_tensor_meta(0))
for b, result in shapes.items():
    print(f"batch {b}: {result}")
print("runtime log, cpuinfo lines left out:")
for line in log:
    if "cpuinfo" not in line:
        print("   ", line)
