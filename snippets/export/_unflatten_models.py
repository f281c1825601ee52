import torch


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x, scale):
        return {"out": self.lin(x) * scale, "aux": x.sum()}


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x):
        d = self.block(x, 2.0)
        return self.head(d["out"]) + d["aux"]
