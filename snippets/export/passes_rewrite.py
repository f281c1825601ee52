import warnings

import torch
from torch.fx import subgraph_rewriter

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13
aten = torch.ops.aten


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.fc(x)) * 2


def ops(ep):
    return [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]


def check(ep, x, net):
    try:
        ep.validate()
        valid = "valid"
    except Exception as e:
        valid = f"{type(e).__name__}: {e}"
    print("  same output:", torch.equal(ep.module()(x), net(x)), "|", valid)


net, x = Net(), torch.randn(2, 4)
ep = torch.export.export(net, (x,))

# 1. Op by op: a decomposition table. run_decompositions builds a new, valid program.
table = {aten.relu.default: lambda t: aten.clamp_min.default(t, 0.0)}
ep1 = ep.run_decompositions(table)
print("table:   ", ops(ep1))
check(ep1, x, net)

# 2. A pattern: the subgraph rewriter edits graph_module in place.
def pattern(t):
    return aten.relu.default(t)


def replacement(t):
    return aten.clamp_min.default(t, 0.0)


ep2 = ep.run_decompositions()
subgraph_rewriter.replace_pattern(ep2.graph_module, pattern, replacement)
print("rewriter:", ops(ep2))
check(ep2, x, net)
print("  meta['val'] on the new node:",
      [("val" in n.meta) for n in ep2.graph.nodes if n.target == aten.clamp_min.default])

# 3. Re-export the rewritten module: a fresh trace fills meta and signature again.
ep3 = torch.export.export(ep2.module(), (x,))
print("re-export:", ops(ep3))
check(ep3, x, net)
