#| expect: RuntimeError
import torch

w = torch.tensor([2.0, 3.0], requires_grad=True)
y = w * w  # two values, not one

y.backward(gradient=torch.ones_like(y))  # say what to start from: fine
print("with gradient=ones:", w.grad)
y = w * w
y.backward()  # no starting gradient for a non-scalar
