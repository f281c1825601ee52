# wrong: the right values, but for every matrix the prefix and suffix products are rebuilt from scratch,
# so the number of matrix products grows like n ** 2, past the limit of 4 * n
import torch


def chain_backward(xs: list[torch.Tensor], grad_out: torch.Tensor) -> list[torch.Tensor]:
    n = len(xs)
    grads = []
    for i in range(n):
        g = grad_out
        if i + 1 < n:
            right = xs[i + 1]
            for a in xs[i + 2:]:
                right = right @ a
            g = g @ right.T
        if i > 0:
            left = xs[0]
            for a in xs[1:i]:
                left = left @ a
            g = left.T @ g
        grads.append(g.clone())
    return grads
