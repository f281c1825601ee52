import torch

w = torch.nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
(w**3).sum().backward(create_graph=True)
print("w.grad:", w.grad.tolist(), "w.grad.grad_fn:", type(w.grad.grad_fn).__name__)
w.grad = None  # what the warning asks: break the cycle between w and its .grad
