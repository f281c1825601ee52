import torch
from torch import nn

torch.manual_seed(0)
x, y = torch.randn(64, 4), torch.randn(64, 1)


def train(fill):
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    if fill is not None:
        with torch.no_grad():
            for p in net.parameters():
                p.fill_(fill)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(100):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()
    w1 = net[0].weight
    distinct = torch.unique(w1.detach().round(decimals=5), dim=0).shape[0]
    label = "default" if fill is None else fill
    print(f"init {label:>7}: distinct hidden units after 100 steps {distinct} of 8,"
          f" first-layer weight all zero {bool((w1 == 0).all())}")


train(None)  # the default init
train(0.5)   # every weight equal: the units stay copies of each other
train(0.0)   # all zero: tanh(0) = 0, so the first layer never gets a gradient
