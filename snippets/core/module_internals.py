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
    every_tensor = [p for layer in [*model.layers, model.head] for p in layer.parameters()]
    snapshot = [p.detach().clone() for p in every_tensor]
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 4))
    print("layers[0] has a grad:", model.layers[0].weight.grad is not None,
          "| changed by training:", not torch.equal(before, model.layers[0].weight))
    changed = sum(not torch.equal(a, b) for a, b in zip(snapshot, every_tensor))
    print(f"loss over 3 steps: {losses} | tensors changed: {changed} of {len(every_tensor)}")
    model.eval()
    print("after .eval(): layers[0].training", model.layers[0].training,
          "| head.training", model.head.training)
    model.to(torch.float64)
    print("after .to(float64): layers[0]", model.layers[0].weight.dtype,
          "| head", model.head.weight.dtype)
    try:
        print("forward in float64: output", model(x.double()).dtype)
    except RuntimeError as e:
        print("forward in float64: RuntimeError:", e)
    print("state_dict keys:", list(model.state_dict()))
