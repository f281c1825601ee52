# mistake: the gradients come from autograd on copies of the inputs: right values, but the task
# was the backward by hand
# fails: no_autograd
import torch


def chain_backward(xs, grad_out):
    with torch.enable_grad():
        leaves = [a.detach().requires_grad_() for a in xs]
        out = leaves[0]
        for a in leaves[1:]:
            out = out @ a
        return list(torch.autograd.grad(out, leaves, grad_out))
