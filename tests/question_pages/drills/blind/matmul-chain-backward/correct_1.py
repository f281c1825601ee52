import torch


def chain_backward(xs: list[torch.Tensor], grad_out: torch.Tensor) -> list[torch.Tensor]:
    n = len(xs)
    # prefixes[i] = A1 @ ... @ A(i+1); only the first n - 1 are needed (n - 2 products)
    prefixes = [xs[0]]
    for i in range(1, n - 1):
        prefixes.append(prefixes[-1] @ xs[i])
    grads: list[torch.Tensor] = [grad_out] * n
    g = grad_out  # dL/d(A1 @ ... @ A(i+1)) while walking i from n - 1 down
    for i in range(n - 1, 0, -1):
        grads[i] = prefixes[i - 1].T @ g
        g = g @ xs[i].T
    grads[0] = g.clone()
    return grads
