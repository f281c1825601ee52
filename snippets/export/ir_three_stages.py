import warnings

import torch

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.drop = torch.nn.Dropout(0.1)
        self.norm = torch.nn.LayerNorm(4)

    def forward(self, x):
        h = torch.nn.functional.gelu(self.lin(x))
        return self.norm(self.drop(h)).softmax(-1)


def show(title, ep):
    ops = [str(n.target).removeprefix("aten.") for n in ep.graph.nodes
           if n.op == "call_function" and "getitem" not in str(n.target)]
    print(f"{title}  [dialect {ep.dialect}]")
    print("   ", ", ".join(ops))


ep = torch.export.export(Block().eval(), (torch.randn(2, 4),))
show("export()", ep)
show("run_decompositions({})", ep.run_decompositions(decomp_table={}))
show("run_decompositions()", ep.run_decompositions())
print("torch.export has export_for_training:", hasattr(torch.export, "export_for_training"))
