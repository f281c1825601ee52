#| expect: torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode
import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # Python branch on a tensor's value
            return x * 2
        return -x


model = Gate()
pos, neg = torch.ones(3), -torch.ones(3)

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append([str(n.target) for n in gm.graph.nodes if n.op in ("call_function", "call_method")])
    return gm.forward


# torch.compile: breaks the graph at the `if`, lets Python pick the branch, compiles each side.
compiled = torch.compile(model, backend=counting_backend)
print("compile, positive input:", compiled(pos))
print("compile, negative input:", compiled(neg))
print("graphs compiled:", graphs)

# torch.export: one graph or nothing. The same branch is an error.
torch.export.export(model, (pos,))
