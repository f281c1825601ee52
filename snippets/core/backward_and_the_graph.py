import torch

w = torch.tensor([2.0, 3.0], requires_grad=True)  # a leaf you created
x = torch.tensor([1.0, 4.0])                       # data: no grad wanted
y = w * x                                          # non-leaf: made by an op
loss = y.sum()

print("loss.grad_fn:", loss.grad_fn)
print("loss.grad_fn.next_functions:", loss.grad_fn.next_functions)
print("y.grad_fn.next_functions:", y.grad_fn.next_functions)
print("is_leaf: w", w.is_leaf, "| x", x.is_leaf, "| y", y.is_leaf)
print("grad_fn: w", w.grad_fn, "| x", x.grad_fn)
print("w > 2 (not differentiable): grad_fn", (w > 2).grad_fn,
      "| requires_grad", (w > 2).requires_grad)

y.retain_grad()  # ask autograd to keep this non-leaf's gradient
loss.backward()

print("w.grad:", w.grad)  # d(loss)/dw = x
print("y.grad:", y.grad)  # kept because of retain_grad()
print("x.grad:", x.grad)  # never required grad
