import copy
import warnings

import torch
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import create_op_support

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13
aten = torch.ops.aten


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = torch.relu(self.fc(x))
        h = torch.sin(h)  # the backend has no kernel for sin
        return h * 2 + 1


def supports(ops):
    return create_op_support(lambda mods, n: n.op == "call_function" and n.target in ops)


x = torch.randn(2, 4)
ep = torch.export.export(Net(), (x,)).run_decompositions()
backend_ops = {aten.permute.default, aten.addmm.default, aten.relu.default,
               aten.mul.Tensor, aten.add.Tensor}

gm = copy.deepcopy(ep.graph_module)  # fuse_partitions rewrites the module it is given
partitioner = CapabilityBasedPartitioner(gm, supports(backend_ops))
parts = partitioner.propose_partitions()
print("partitions:", [sorted(n.name for n in p.nodes) for p in parts])
fused = partitioner.fuse_partitions(parts)
print("same module object:", fused is gm)
for n in fused.graph.nodes:
    if n.op in ("call_module", "call_function"):
        print(f"  {n.op:13} {n.target!s:17} <- {[a.name for a in n.args]}")
print(fused.fused_0.code.strip())
user_args = [ep.state_dict[s.target] for s in ep.graph_signature.input_specs if s.target] + [x]
print("same output:", torch.equal(fused(*user_args)[0], ep.module()(x)))

without_add = backend_ops - {aten.add.Tensor}
parts = CapabilityBasedPartitioner(copy.deepcopy(ep.graph_module), supports(without_add)).propose_partitions()
print("no add kernel:", [sorted(n.name for n in p.nodes) for p in parts])
