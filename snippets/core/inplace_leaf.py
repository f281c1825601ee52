#| expect: RuntimeError
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)

with torch.no_grad():  # an update step: not recorded, allowed
    w.sub_(0.1)
print("updated under no_grad:", w, "| is_leaf:", w.is_leaf)

w.sub_(0.1)  # the same update, recorded by autograd
