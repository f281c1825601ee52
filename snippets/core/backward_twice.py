#| expect: RuntimeError
import torch

w = torch.tensor([2.0, 3.0], requires_grad=True)
loss = (w * w).sum()  # mul saves w for its backward

loss.backward()
print("first backward, w.grad:", w.grad)
loss.backward()  # the saved tensors were freed by the first call
