#| expect: RuntimeError
import torch

x = torch.tensor([4.0, 0.0, -1.0], requires_grad=True)


def safe_sqrt(t):  # "safe": the forward never takes the root of a negative or a zero
    return torch.where(t > 0, torch.sqrt(t), torch.zeros_like(t))


loss = safe_sqrt(x).sum()
loss.backward()
print("loss:", loss.item(), "| x.grad:", x.grad.tolist())

x.grad = None
torch.where(x > 0, torch.sqrt(torch.where(x > 0, x, 1.0)), 0.0).sum().backward()  # safe input, not output
print("fixed | x.grad:", x.grad.tolist())

x.grad = None
with torch.autograd.detect_anomaly():
    loss = safe_sqrt(x).sum()
    loss.backward()
