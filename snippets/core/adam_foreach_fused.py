import torch
from torch import nn


def train(**impl):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1, **impl)
    torch.manual_seed(1)
    for _ in range(20):
        x, y = torch.randn(64, 16), torch.randn(64, 1)
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    return torch.cat([p.detach().flatten() for p in model.parameters()])


loop = train(foreach=False, fused=False)
foreach = train(foreach=True)
fused = train(fused=True)  # fused on CPU: accepted by torch 2.13
default = train()
print("foreach equals the for-loop bit for bit:", torch.equal(foreach, loop))
print("fused equals the for-loop bit for bit:", torch.equal(fused, loop))
print("fused within 1e-6 of the for-loop:", (fused - loop).abs().max().item() < 1e-6)
print("default (foreach=None, fused=None) equals the for-loop:", torch.equal(default, loop))
