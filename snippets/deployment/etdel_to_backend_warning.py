#| devices: cpu
import logging
import warnings

# ExecuTorch imports torchao: hide its log about CUDA-only kernels this CPU build cannot load,
# and torch's log about the Enum torchao registers with pytree. Both are harmless here.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
warnings.filterwarnings("ignore", category=FutureWarning)  # torch's pytree LeafSpec notice

import torch  # noqa: E402
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner  # noqa: E402
from executorch.exir import to_edge, to_edge_transform_and_lower  # noqa: E402

torch.manual_seed(0)

warned = []
partitioner_log = logging.getLogger("executorch.backends.xnnpack.partition.xnnpack_partitioner")
partitioner_log.addHandler(type("Keep", (logging.Handler,), {"emit": lambda self, r: warned.append(r.getMessage())})())
partitioner_log.propagate = False

ep = torch.export.export(torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU()).eval(), (torch.randn(2, 8),))

for label, lower in (("to_edge_transform_and_lower", lambda: to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])),
                     ("to_edge() + to_backend()", lambda: to_edge(ep).to_backend(XnnpackPartitioner()))):
    warned.clear()
    program = lower().exported_program()
    delegates = sum(n.target is torch.ops.higher_order.executorch_call_delegate for n in program.graph.nodes)
    print(f"{label}: {delegates} delegate call(s), warnings: {[w.strip().split('. ')[0] for w in warned]}")
