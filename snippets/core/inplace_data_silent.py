import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.sum().backward()
right = x.grad.clone()           # sigmoid'(x) = y * (1 - y)

x.grad = None
y = x.sigmoid()
y.data.mul_(2)                   # bypasses the version counter
print("y._version:", y._version)
y.sum().backward()               # no error...
print("gradient right:     ", right)
print("gradient after .data:", x.grad)  # ...computed from the changed y

x.grad = None
y = x.sigmoid()
y.detach().mul_(2)               # detach() shares the counter: this write is seen
print("after detach().mul_(2), y._version:", y._version)
try:
    y.sum().backward()
except RuntimeError as err:
    print("backward:", str(err).split(":")[0])
