import torch
import torch.nn.functional as F


class Functional(torch.nn.Module):
    def forward(self, x):
        return F.dropout(x, p=0.5)  # training defaults to True


class FollowsMode(torch.nn.Module):
    def forward(self, x):
        return F.dropout(x, p=0.5, training=self.training)


class WithModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = torch.nn.Dropout(p=0.5)

    def forward(self, x):
        return self.drop(x)


torch.manual_seed(0)
x = torch.ones(1000)
for model in (Functional(), FollowsMode(), WithModule()):
    model.eval()
    out = model(x)
    print(f"{type(model).__name__:12} eval mode: zeroed {(out == 0).sum().item():3} of 1000,"
          f" values {sorted(set(out.tolist()))}")
