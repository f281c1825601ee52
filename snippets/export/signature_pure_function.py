import zipfile

import torch

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        return self.lin(x)


ep = torch.export.export(Net(), (torch.ones(1, 2),))
gm = ep.graph_module
print("get_attr nodes in ep.graph_module:", len(gm.graph.find_nodes(op="get_attr")))
print("placeholders:", [n.name for n in gm.graph.find_nodes(op="placeholder")])

# The graph is a function of (weights..., inputs...): feed it other weights.
w, b, x = torch.eye(2), torch.tensor([10.0, 20.0]), torch.tensor([[1.0, 2.0]])
print("graph with new weights:", gm(w, b, x))

# ep.module() puts the weights back as attributes read by get_attr nodes.
m = ep.module()
print("get_attr nodes in ep.module():", [n.target for n in m.graph.find_nodes(op="get_attr")])
print("placeholders:", [n.name for n in m.graph.find_nodes(op="placeholder")])

# Saved, the weights are stored apart from the graph.
torch.export.save(ep, "net.pt2")
for name in sorted(zipfile.ZipFile("net.pt2").namelist()):
    if "/models/" in name or "/data/weights/" in name:
        print("  net.pt2:", name)
