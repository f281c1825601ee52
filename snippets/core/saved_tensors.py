#| expect: RuntimeError
import torch

w = torch.tensor([2.0, 3.0], requires_grad=True)
loss = (w * w).sum()
mul = loss.grad_fn.next_functions[0][0]  # the MulBackward0 node

print(type(mul).__name__, "saved self: ", mul._saved_self)
print(type(mul).__name__, "saved other:", mul._saved_other)

loss.backward(retain_graph=True)
print("after backward(retain_graph=True), saved self:", mul._saved_self)

loss.backward()  # this one frees the saved tensors
print("w.grad:", w.grad)
print(mul._saved_self)
