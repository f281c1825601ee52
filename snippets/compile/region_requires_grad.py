import torch
from torch._dynamo.utils import guard_failures

torch.manual_seed(0)

graphs = []


def counting_backend(gm, example_inputs):  # keep each graph, run it as is
    graphs.append(gm)
    return gm.forward


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)

    def forward(self, x):
        return torch.relu(self.lin(x))


# Regional compilation: each block compiled on its own, fed an input that does not require grad.
blocks = torch.nn.ModuleList(Block() for _ in range(4))
for block in blocks:
    block.compile(backend=counting_backend)
x = torch.randn(2, 16)  # requires_grad=False; every block's output requires grad (its weights do)
for block in blocks:
    x = block(x)
print("regional: graphs compiled for 4 blocks:", len(graphs))
print("  recompile reason:", [r for reasons in guard_failures.values() for r in reasons])


class NestedBlock(Block):
    @torch.compiler.nested_compile_region
    def forward(self, x):
        return torch.relu(self.lin(x))


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList(NestedBlock() for _ in range(4))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


graphs.clear()
torch.compile(Model(), backend=counting_backend)(torch.randn(2, 16))
(gm,) = graphs
print("nested_compile_region: graphs:", len(graphs), "| subgraphs traced:", [name for name, _ in gm.named_children()])
calls = [n.args[1] for n in gm.graph.nodes if n.target is torch.ops.higher_order.invoke_subgraph]
print("  ops before the first invoke_subgraph:",
      [n.target.__name__ for n in gm.graph.nodes if n.op == "call_function"][:2], "| invoke_subgraph calls:", calls)
