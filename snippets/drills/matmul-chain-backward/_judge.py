"""The judge of matmul-chain-backward: the hand-written gradients of A1 @ A2 @ ... @ An against
autograd's (torch.autograd.grad of the same chain) in float64, for n = 1, 2, 5 and 12 matrices,
non-square and vector-shaped (a dimension of 1), on several seeds, and in float32. The solution
runs under torch.no_grad() with inputs that do not require grad, so autograd has no graph to use
unless the solution turns grad mode on to build one; a TorchDispatchMode counts the matrix
products it runs (aten mm, addmm, bmm, baddbmm, mv, dot, ...) and checks that no op runs with
grad mode on."""

import itertools

import torch
from _drill import Tests, Wrong, expect_tensor, need
from torch.utils._python_dispatch import TorchDispatchMode

TESTS = Tests("matmul-chain-backward")
SEEDS = (0, 1, 2)
F64 = dict(atol=1e-10, rtol=1e-8)
PRODUCTS = {"mm", "addmm", "bmm", "baddbmm", "addbmm", "mv", "addmv", "dot", "vdot", "matmul",
            "_addmm_activation", "einsum", "tensordot", "outer", "ger", "addr"}


def chain(dims, seed, dtype=torch.float64):
    """The matrices of shapes (dims[0], dims[1]), (dims[1], dims[2]), ... and a grad_out."""
    g = torch.Generator().manual_seed(seed)
    xs = [torch.randn(a, b, generator=g, dtype=torch.float64).to(dtype)
          for a, b in itertools.pairwise(dims)]
    grad_out = torch.randn(dims[0], dims[-1], generator=g, dtype=torch.float64).to(dtype)
    return xs, grad_out


def autograd_grads(xs, grad_out):
    """The trusted gradients: autograd of the chain, in float64."""
    leaves = [a.detach().double().requires_grad_() for a in xs]
    with torch.enable_grad():
        out = leaves[0]
        for a in leaves[1:]:
            out = out @ a
        return torch.autograd.grad(out, leaves, grad_out.double())


class Watch(TorchDispatchMode):
    """Counts the matrix products run under it, and whether any op ran with grad mode on."""

    def __init__(self):
        super().__init__()
        self.products, self.grad_mode = 0, False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.__name__.split(".")[0] in PRODUCTS:
            self.products += 1
        self.grad_mode |= torch.is_grad_enabled()
        return func(*args, **(kwargs or {}))


def run(solution, xs, grad_out, what):
    """The solution under no_grad, its matrix products counted and grad mode watched."""
    fn = need(solution, "chain_backward")
    copies = [a.clone() for a in xs], grad_out.clone()
    with torch.no_grad():
        got = fn(list(xs), grad_out)  # outside the mode: an error points at the solution's line
        with Watch() as watch:
            fn(list(xs), grad_out)
    if watch.grad_mode:
        raise Wrong(f"{what}: ops ran with grad mode on (torch.enable_grad(), autograd or a"
                    " torch.func transform): the gradients must be written by hand")
    for i, (a, before) in enumerate(zip(xs, copies[0], strict=True)):
        if not torch.equal(a, before):
            raise Wrong(f"{what}: xs[{i}] was modified")
    if not torch.equal(grad_out, copies[1]):
        raise Wrong(f"{what}: grad_out was modified")
    if not isinstance(got, (list, tuple)) or len(got) != len(xs):
        raise Wrong(f"{what}: expected a list of {len(xs)} gradients, got "
                    + (f"{len(got)}" if isinstance(got, (list, tuple)) else type(got).__name__))
    return list(got), watch.products


def check(solution, dims, seed, what, dtype=torch.float64, **tol):
    xs, grad_out = chain(dims, seed, dtype)
    expected = autograd_grads(xs, grad_out)
    got, products = run(solution, xs, grad_out, what)
    for i, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        if not isinstance(mine, torch.Tensor):
            raise Wrong(f"{what}: the gradient of A{i + 1} is {type(mine).__name__}, not a tensor")
        expect_tensor(mine, theirs.to(dtype), f"{what}: the gradient of A{i + 1} (xs[{i}])",
                      **(tol or F64))
    return products


@TESTS.test("returns a list of n tensors, the i-th of xs[i]'s shape, in xs' order (n = 1, 2, 3"
            " and 5, non-square)",
            hint="one gradient per matrix, in the order of xs, each of that matrix's shape:"
                 " dL/dAi has Ai's shape")
def test_shapes(solution):
    for dims in ((3, 4), (3, 4, 5), (2, 3, 4, 5), (2, 3, 4, 5, 6, 7)):
        xs, grad_out = chain(dims, 0)
        got, _ = run(solution, xs, grad_out, f"n = {len(xs)}")
        for i, (mine, a) in enumerate(zip(got, xs, strict=True)):
            if not isinstance(mine, torch.Tensor) or mine.shape != a.shape:
                raise Wrong(f"n = {len(xs)}, shapes {[tuple(x.shape) for x in xs]}: the"
                            f" gradient at index {i} should have xs[{i}]'s shape {tuple(a.shape)},"
                            " got " + (f"{tuple(mine.shape)}" if isinstance(mine, torch.Tensor)
                                       else type(mine).__name__))


@TESTS.test("one matrix (n = 1): the gradient is grad_out",
            hint="with one matrix out = A1, so dL/dA1 = grad_out; make sure empty prefix and"
                 " suffix lists do not break the loop")
def test_one_matrix(solution):
    for seed, dims in enumerate(((3, 4), (1, 5), (4, 1))):
        check(solution, dims, seed, f"one matrix {dims}")


@TESTS.test("two matrices: dA1 = grad_out @ A2.T and dA2 = A1.T @ grad_out (3 seeds, non-square)",
            hint="for out = A @ B: dA = grad_out @ B.T and dB = A.T @ grad_out; check the"
                 " shapes: (d0, d2) @ (d2, d1) gives (d0, d1)")
def test_two_matrices(solution):
    for seed in SEEDS:
        check(solution, (3, 5, 2), seed, f"seed {seed}, shapes (3, 5) @ (5, 2)")
        check(solution, (4, 4, 4), seed, f"seed {seed}, square (4, 4) @ (4, 4)")


@TESTS.test("five matrices, non-square, equal autograd's gradients in float64 (3 seeds)",
            hint="dAi = (A1 @ ... @ A(i-1)).T @ grad_out @ (A(i+1) @ ... @ An).T: the product"
                 " before Ai transposed on the left, the one after it transposed on the right")
def test_five_matrices(solution):
    for seed in SEEDS:
        check(solution, (3, 6, 2, 5, 4, 3), seed, f"seed {seed}, dims (3, 6, 2, 5, 4, 3)")
        check(solution, (4, 4, 4, 4, 4, 4), seed, f"seed {seed}, five square (4, 4)")


@TESTS.test("vector shapes: dimensions of 1 inside and at the ends ((1, k) rows, (k, 1) columns,"
            " a (1, 1) output)",
            hint="nothing special-cased: keep every tensor 2-D (no squeeze, no 1-D vectors) and"
                 " the same products work")
def test_vector_shapes(solution):
    for seed, dims in enumerate(((1, 4, 3, 1), (5, 1, 4), (1, 3, 1, 2, 1), (2, 1, 1, 3))):
        check(solution, dims, seed, f"dims {dims}")


@TESTS.test("float32 in, float32 out, near the float64 truth (n = 4)",
            hint="compute in the inputs' dtype and return that dtype")
def test_float32(solution):
    for seed in SEEDS:
        check(solution, (3, 5, 4, 2, 6), seed, f"float32, seed {seed}", torch.float32,
              atol=1e-4, rtol=1e-4)


@TESTS.test("no autograd: runs under torch.no_grad() with inputs that do not require grad,"
            " without calling autograd or turning grad mode on",
            hint="write the products yourself: walk back from grad_out, multiplying by each"
                 " matrix transposed, and multiply by the forward's prefix products")
def test_no_autograd(solution):
    check(solution, (3, 4, 5, 2), 0, "dims (3, 4, 5, 2)")


@TESTS.test("cost: at most 4 * n matrix products for n = 3, 6 and 12 (products reused, not"
            " recomputed: an O(n ** 2) solution runs about n ** 2 of them)",
            hint="keep the prefix products A1 @ ... @ Ai from one pass, and carry the gradient"
                 " backwards one matrix at a time (g = g @ Ai.T), instead of recomputing each"
                 " product before and after Ai from scratch")
def test_linear_cost(solution):
    for n in (3, 6, 12):
        dims = tuple(3 + (i % 3) for i in range(n + 1))
        products = check(solution, dims, n, f"{n} matrices")
        if products > 4 * n:
            raise Wrong(f"{n} matrices: {products} matrix products, more than 4 * n = {4 * n}")
