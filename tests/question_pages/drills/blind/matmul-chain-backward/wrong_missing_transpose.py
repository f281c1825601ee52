# wrong: the gradient is passed back through Ai without transposing it (g @ Ai instead of g @ Ai^T):
# runs when the matrices are square, but gives the wrong gradients
import torch


def chain_backward(xs: list[torch.Tensor], grad_out: torch.Tensor) -> list[torch.Tensor]:
    n = len(xs)
    prefixes = [xs[0]]
    for i in range(1, n - 1):
        prefixes.append(prefixes[-1] @ xs[i])
    grads: list[torch.Tensor] = [grad_out] * n
    g = grad_out
    for i in range(n - 1, 0, -1):
        grads[i] = prefixes[i - 1].T @ g
        g = g @ xs[i]
    grads[0] = g.clone()
    return grads
