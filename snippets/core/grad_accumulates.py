import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)

for step in range(3):
    loss = (3 * w).sum()  # d(loss)/dw = 3 each time
    loss.backward()
    print(f"after backward {step + 1}: w.grad = {w.grad}")
