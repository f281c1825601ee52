import warnings

import torch

w = torch.tensor([2.0, 3.0], requires_grad=True)
y = w * 2
y.sum().backward()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("y.grad:", y.grad)
print("warning:", caught[0].category.__name__)
print(str(caught[0].message))
