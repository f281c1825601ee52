import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = w * 2
d = y.detach()

print("d.requires_grad:", d.requires_grad, "| d.grad_fn:", d.grad_fn)
print("same storage:", d.data_ptr() == y.data_ptr())
d[0] = 100.0  # writes into y's memory too
print("y after writing d[0]:", y)
print("y._version:", y._version, "(shared with d)")

c = y.detach().clone()  # a copy that owns its memory
c[1] = -1.0
print("y after writing a clone:", y)
