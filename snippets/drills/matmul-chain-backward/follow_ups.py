# The follow-ups of matmul-chain-backward, on the pinned torch: the reference's matrix products
# against autograd's, why reverse mode is cheap for a scalar loss (FlopCounterMode), the order of
# a matrix chain, and what autograd saves for the backward of a chain.
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import FlopCounterMode

g = torch.Generator().manual_seed(0)


def randn(*shape):
    return torch.randn(*shape, generator=g, dtype=torch.float64)


def chain_backward(xs, grad_out):  # the drill's reference
    n = len(xs)
    prefix = [xs[0]]
    for a in xs[1:-1]:
        prefix.append(prefix[-1] @ a)
    grads = [None] * n
    gr = grad_out
    for i in range(n - 1, 0, -1):
        grads[i] = prefix[i - 1].T @ gr
        gr = gr @ xs[i].T
    grads[0] = gr
    return grads


class CountMM(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.mm = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.mm += func.__name__.split(".")[0] == "mm"
        return func(*args, **(kwargs or {}))


def flops(fn):
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


# 1. Matrix products: the forward, autograd's backward, the reference's backward.
n, d = 6, 32
xs = [randn(d, d).requires_grad_() for _ in range(n)]
with CountMM() as fwd:
    out = xs[0]
    for a in xs[1:]:
        out = out @ a
grad_out = randn(d, d)
with CountMM() as bwd:
    autograd = torch.autograd.grad(out, xs, grad_out)
with torch.no_grad(), CountMM() as ref:
    mine = chain_backward([a.detach() for a in xs], grad_out)
print(f"n = {n}: forward {fwd.mm} mm, autograd's backward {bwd.mm} mm,"
      f" the reference {ref.mm} mm; equal gradients:",
      all(torch.allclose(a, b) for a, b in zip(mine, autograd, strict=True)))

# 2. A scalar loss L = x @ A1 @ ... @ An @ w, x and w vectors of d: the gradient of x
# by reverse mode (one vector pulled back) and by forward mode (d directions pushed forward).
n, d = 8, 64
mats = [randn(d, d) / d ** 0.5 for _ in range(n)]
w = randn(d)


def loss(x):
    for a in mats:
        x = x @ a
    return x @ w


x = randn(d)
print("FLOPs of the loss:", flops(lambda: loss(x)))
print("FLOPs of the gradient, reverse mode (torch.func.jacrev):",
      flops(lambda: torch.func.jacrev(loss)(x)))
print("FLOPs of the gradient, forward mode (torch.func.jacfwd):",
      flops(lambda: torch.func.jacfwd(loss)(x)))
print("same gradient:", torch.allclose(torch.func.jacrev(loss)(x), torch.func.jacfwd(loss)(x)))

# 3. The order of a chain: (A @ B) @ C against A @ (B @ C), and torch.linalg.multi_dot.
A, B, C = randn(10, 100), randn(100, 5), randn(5, 50)
print("FLOPs (A @ B) @ C:", flops(lambda: (A @ B) @ C), "| A @ (B @ C):", flops(lambda: A @ (B @ C)),
      "| A @ B @ C:", flops(lambda: A @ B @ C),
      "| multi_dot:", flops(lambda: torch.linalg.multi_dot([A, B, C])))

# 4. What autograd saves for the backward of A1 @ A2 @ A3 @ A4: the shapes, and which are the
# forward's intermediate products rather than inputs.
leaves = [randn(a, b).requires_grad_() for a, b in ((2, 3), (3, 4), (4, 5), (5, 6))]
saved = []


def pack(t):
    saved.append(t)
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    h = leaves[0]
    for a in leaves[1:]:
        h = h @ a
print("saved for backward:", [
    (tuple(t.shape), "input" if any(t is leaf for leaf in leaves) else "intermediate")
    for t in saved])
