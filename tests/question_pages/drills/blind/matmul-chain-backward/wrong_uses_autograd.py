# wrong: the right values, but it computes them with autograd, turning grad mode on inside the
# function, which the contract forbids
import torch


def chain_backward(xs: list[torch.Tensor], grad_out: torch.Tensor) -> list[torch.Tensor]:
    with torch.enable_grad():
        leaves = [a.detach().requires_grad_() for a in xs]
        out = leaves[0]
        for a in leaves[1:]:
            out = out @ a
        grads = torch.autograd.grad(out, leaves, grad_out)
    return [g.detach() for g in grads]
