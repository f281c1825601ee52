#| expect: ValueError
import torch
from torch import nn

torch.manual_seed(0)


class OnlyAList(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = [nn.Linear(4, 4) for _ in range(3)]  # never registered

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


model = OnlyAList()
print("parameters():", list(model.parameters()))
torch.optim.AdamW(model.parameters(), lr=1e-3)
