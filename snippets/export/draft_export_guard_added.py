import logging
import warnings

import torch
from torch.export import Dim

torch.manual_seed(0)

logging.getLogger("torch").setLevel(logging.CRITICAL)  # we print the report ourselves
warnings.simplefilter("ignore", ResourceWarning)  # draft_export leaves its trace log open


class Grid(torch.nn.Module):
    def forward(self, x):
        return x.reshape(2, 4) + 1  # silently requires len(x) == 8


shapes = {"x": {0: Dim("n")}}  # but we claim dim 0 is dynamic
try:
    torch.export.export(Grid(), (torch.randn(8),), dynamic_shapes=shapes)
except Exception as e:
    print("export:", type(e).__name__, "-", str(e).splitlines()[1].strip(" -"))

ep = torch.export.draft_export(Grid(), (torch.randn(8),), dynamic_shapes=shapes)
for f in ep._report.failures:
    print("draft_export:", f.failure_type, f.data["expr"])
    print("  retried with:", f.data["new_dynamic_shapes"])
x_node = ep.graph.find_nodes(op="placeholder")[0]
print("input shape in the graph:", x_node.meta["val"].shape)
print("range constraints:", ep.range_constraints)
