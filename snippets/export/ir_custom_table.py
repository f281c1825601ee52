import warnings

import torch

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13
aten = torch.ops.aten


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.nn.functional.gelu(self.fc(x))


def show(title, ep):
    print(title, f"[dialect {ep.dialect}]")
    for n in ep.graph.nodes:
        if n.op == "call_function":
            core = torch.Tag.core in n.target.tags
            print(f"    {n.target!s:24} core={core}")


ep = torch.export.export(Mlp(), (torch.randn(2, 4),))

table = torch.export.default_decompositions()
print(type(table).__name__, "with", len(table), "entries")
show("default table:", ep.run_decompositions(table))

del table[aten.linear.default]  # keep linear whole


def sigmoid_gelu(x, approximate="none"):  # my own rule for gelu
    return x * torch.sigmoid(1.702 * x)


table[aten.gelu.default] = sigmoid_gelu
show("linear kept, gelu rewritten:", ep.run_decompositions(table))
