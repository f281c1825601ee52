#| expect: RuntimeError
import torch

torch.manual_seed(0)

x = torch.randn(4, requires_grad=True)
(g,) = torch.autograd.grad((x**3).sum(), x)  # create_graph=False: g is a plain tensor
print("g.requires_grad:", g.requires_grad, "g.grad_fn:", g.grad_fn)
torch.autograd.grad(g.sum(), x)
