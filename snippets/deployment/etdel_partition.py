#| devices: cpu
#| timeout: 240
import logging
import warnings

# ExecuTorch imports torchao: hide its log about CUDA-only kernels this CPU build cannot load,
# and torch's log about the Enum torchao registers with pytree. Both are harmless here.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
warnings.filterwarnings("ignore", category=FutureWarning)  # torch's pytree LeafSpec notice

import pandas as pd
import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.devtools.backend_debug import get_delegation_info
from executorch.exir import to_edge_transform_and_lower

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        return torch.cumsum(torch.relu(self.fc(x)), dim=1)  # XNNPACK takes linear, not cumsum


model = Net().eval()
x = torch.randn(2, 16)
ep = torch.export.export(model, (x,))

for label, partitioners in [("with XnnpackPartitioner", [XnnpackPartitioner()]), ("no partitioner", [])]:
    edge = to_edge_transform_and_lower(ep, partitioner=partitioners)
    gm = edge.exported_program().graph_module
    print(f"== {label}: top-level graph")
    for node in gm.graph.nodes:
        if node.op == "call_function":
            print("   ", node.name)
    info = get_delegation_info(gm)
    print("   ", info.get_summary().strip().replace("\n", "; "))
    if partitioners:
        with pd.option_context("display.width", 120):
            print(info.get_operator_delegation_dataframe().to_string(index=False))
    plan = edge.to_executorch().executorch_program.execution_plan[0]
    print("    in the .pte: delegates", [d.id for d in plan.delegates],
          "kernels", [op.name for op in plan.operators])
