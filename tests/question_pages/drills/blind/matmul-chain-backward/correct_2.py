import torch


def chain_backward(xs: list[torch.Tensor], grad_out: torch.Tensor) -> list[torch.Tensor]:
    n = len(xs)
    if n == 1:
        return [grad_out.clone()]
    # suffixes[i] = A(i+1) @ ... @ An, built right to left (n - 2 products)
    suffixes: list[torch.Tensor | None] = [None] * n
    suffixes[n - 1] = xs[n - 1]
    for i in range(n - 2, 0, -1):
        suffixes[i] = torch.mm(xs[i], suffixes[i + 1])
    out: list[torch.Tensor] = []
    # h = (A1 @ ... @ Ai)^T @ grad_out, grown left to right: dL/dA(i+1) = h @ suffixes[i+1]^T
    h = grad_out
    for i in range(n):
        if i == n - 1:
            out.append(h.clone() if i == 0 else h)
        else:
            out.append(torch.mm(h, suffixes[i + 1].t()))
            h = torch.mm(xs[i].t(), h)
    return out
