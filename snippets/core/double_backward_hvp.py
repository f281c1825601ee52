import torch
from torch.func import grad, hessian, jvp, vjp

torch.manual_seed(0)
A = torch.randn(4, 4, dtype=torch.float64)


def f(x):
    return torch.sin(x) @ A @ x + (x**4).sum()


x = torch.randn(4, dtype=torch.float64, requires_grad=True)
v = torch.randn(4, dtype=torch.float64)

# Double backward: keep the graph of the first gradient, then differentiate g . v.
(g,) = torch.autograd.grad(f(x), x, create_graph=True)
print("first gradient has a grad_fn:", g.grad_fn is not None, type(g.grad_fn).__name__)
(hvp_autograd,) = torch.autograd.grad(g @ v, x)

xd = x.detach()
hvp_fwd_over_rev = jvp(grad(f), (xd,), (v,))[1]  # forward-mode over reverse-mode
hvp_rev_over_rev = vjp(grad(f), xd)[1](v)[0]  # reverse over reverse, as above
hvp_full = hessian(f)(xd) @ v  # builds the whole 4x4 Hessian

print("autograd.grad HVP == jvp(grad(f)):", torch.allclose(hvp_autograd, hvp_fwd_over_rev))
print("autograd.grad HVP == vjp(grad(f)):", torch.allclose(hvp_autograd, hvp_rev_over_rev))
print("autograd.grad HVP == hessian(f) @ v:", torch.allclose(hvp_autograd, hvp_full))
print("Hessian symmetric:", torch.allclose(hessian(f)(xd), hessian(f)(xd).T))
