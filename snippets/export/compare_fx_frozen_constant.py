import torch

torch.manual_seed(0)


class AddNoise(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 1.0  # a plain Python attribute, not a buffer

    def forward(self, x):
        return x + torch.rand(3) * self.scale  # no Proxy among rand's arguments


x = torch.zeros(3)
model = AddNoise()

gm = torch.fx.symbolic_trace(model)
print("fx.symbolic_trace:")
print(gm.code.strip())
print("same noise on every call:", torch.equal(gm(x), gm(x)))

ep = torch.export.export(model, (x,))
exported = ep.module()
print("\ntorch.export:")
print(ep.graph_module.code.strip())
print("same noise on every call:", torch.equal(exported(x), exported(x)))

model.scale = 0.0  # change the Python attribute after export
print("\nafter model.scale = 0.0")
print("eager adds no noise:   ", torch.equal(model(x), x))
print("exported adds no noise:", torch.equal(exported(x), x))
