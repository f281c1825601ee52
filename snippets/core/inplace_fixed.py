import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)

y = x.sigmoid()
z = y * 2        # out-of-place: a new tensor, y stays at version 0
z.sum().backward()
print("out-of-place:", x.grad)

x.grad = None
y = x.sigmoid()
z = y.clone()    # or clone first, then modify the copy in place
z.mul_(2)
z.sum().backward()
print("clone, then mul_:", x.grad)
print("y._version:", y._version, "| z._version:", z._version)
