#| expect: torch._dynamo.exc.UserError
import torch
from torch.export import Dim, export

torch.manual_seed(0)


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = torch.nn.Parameter(torch.zeros(128, 16))  # a table for 128 positions

    def forward(self, x):  # x: (batch, seq, 16)
        h = x + self.pos  # broadcasting needs seq == 128
        return h.mean(1).view(2, 4, 4)  # a literal 2 needs batch == 2


x = torch.randn(2, 128, 16)
export(Encoder(), (x,), dynamic_shapes={"x": {0: Dim("batch"), 1: Dim("seq")}})
