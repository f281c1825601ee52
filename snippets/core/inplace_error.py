#| expect: RuntimeError
import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()  # sigmoid's backward uses its output y
print("y._version after sigmoid:", y._version)

y.mul_(2)        # in-place: changes y, the tensor SigmoidBackward0 saved
print("y._version after mul_:   ", y._version)

y.sum().backward()
