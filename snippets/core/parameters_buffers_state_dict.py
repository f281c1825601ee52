import torch
from torch import nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)                                         # parameters: weight, bias
        self.register_buffer("running_mean", torch.zeros(2))               # persistent buffer
        self.register_buffer("cache", torch.zeros(2), persistent=False)   # buffer, not saved
        self.mask = torch.ones(2)                                          # plain tensor attribute

    def forward(self, x):
        return (self.lin(x) - self.running_mean) * self.mask


torch.manual_seed(0)
m = Scaler()
print("parameters:", [n for n, _ in m.named_parameters()])
print("buffers:   ", [n for n, _ in m.named_buffers()])
print("state_dict:", list(m.state_dict()))
print("buffer requires_grad:", m.running_mean.requires_grad)
print("BatchNorm1d buffers:", [n for n, _ in nn.BatchNorm1d(2).named_buffers()])

m.to(torch.float64)  # the same walk as .to("cuda"): parameters and buffers only
print("after .to(torch.float64):")
for name in ("lin.weight", "running_mean", "cache", "mask"):
    t = m.get_parameter(name) if name.startswith("lin") else getattr(m, name)
    print(f"  {name:13} {t.dtype}")

sd = m.state_dict()  # references, not copies
print("state_dict shares the weight's storage:", sd["lin.weight"].data_ptr() == m.lin.weight.data_ptr())
print("state_dict weight requires_grad:", sd["lin.weight"].requires_grad)
before = sd["lin.weight"].clone()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.randn(4, 3, dtype=torch.float64)).sum().backward()
opt.step()  # updates the parameters in place
print("the step changed the weight:", not torch.equal(before, m.lin.weight))
print("the state_dict taken before the step holds the new weight:",
      torch.equal(sd["lin.weight"], m.lin.weight))
m.cache = torch.ones(2)  # assigning a tensor to a buffer's name replaces the buffer
print("after m.cache = torch.ones(2), cache is still a buffer:", "cache" in dict(m.named_buffers()))
