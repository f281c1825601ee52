import torch
from torch import nn

torch.manual_seed(0)


class ListNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4), nn.Linear(4, 4)]  # a plain Python list
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


class ModuleListNet(ListNet):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(self.layers)  # the same layers, registered


for cls in (ListNet, ModuleListNet):
    model = cls()
    print(f"--- {cls.__name__}")
    print("'layers' in _modules:", "layers" in model._modules,
          "| in __dict__:", "layers" in model.__dict__)
    print("parameters:", [n for n, _ in model.named_parameters()])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    before = model.layers[0].weight.detach().clone()
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    for _ in range(3):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    print("layers[0] has a grad:", model.layers[0].weight.grad is not None,
          "| changed by training:", not torch.equal(before, model.layers[0].weight))
    model.to(torch.float64)
    print("after .to(float64): layers[0]", model.layers[0].weight.dtype,
          "| head", model.head.weight.dtype)
    print("state_dict keys:", list(model.state_dict()))
