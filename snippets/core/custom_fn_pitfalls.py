import torch
from torch.autograd import gradcheck
from torch.autograd.function import once_differentiable

torch.manual_seed(0)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # the older style: ctx in forward, no setup_context
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x**2


class CubeOnAttribute(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x  # bypasses save_for_backward's checks
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * 3 * ctx.x**2


# 1. x changed in place between forward and backward.
for fn in (Cube, CubeOnAttribute):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1  # a non-leaf we can modify in place
    y = fn.apply(a)
    a.add_(1)
    try:
        y.sum().backward()
        print(f"{fn.__name__}: no error, x.grad = {x.grad.tolist()} (right answer [3.0, 12.0])")
    except RuntimeError as e:
        print(f"{fn.__name__}: RuntimeError: {str(e).splitlines()[0]}")


# 2. backward must return one gradient per forward input.
class TwoInputs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # forgot the second one


try:
    TwoInputs.apply(torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("TwoInputs: RuntimeError:", e)


# 3. once_differentiable: first-order gradients work; a second order gets a detached gradient or raises.
class CubeOnce(Cube):
    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x**2


x = torch.tensor([3.0], requires_grad=True)
(g,) = torch.autograd.grad(Cube.apply(x), x, create_graph=True)
print("Cube: grad", g.item(), "second derivative", torch.autograd.grad(g, x)[0].item())
(g,) = torch.autograd.grad(CubeOnce.apply(x), x, create_graph=True)
print("CubeOnce: grad", g.item(), "but detached, requires_grad:", g.requires_grad)
# With a grad_out that requires grad (here from the square after it), the error is explicit.
(g,) = torch.autograd.grad(CubeOnce.apply(x) ** 2, x, create_graph=True)
try:
    g.backward()
except RuntimeError as e:
    print("CubeOnce, g.backward() when grad_out requires grad: RuntimeError:", e)

# 4. gradcheck in float32: a correct backward, but finite differences are too coarse.
x32 = torch.randn(4, requires_grad=True)
print("gradcheck float32:", gradcheck(Cube.apply, (x32,), raise_exception=False))
inputs = [torch.randn(4, requires_grad=True) for _ in range(10)]
more = [gradcheck(Cube.apply, (t,), raise_exception=False) for t in inputs]
print("gradcheck float32 on 10 more random inputs, passed:", sum(more))
print("gradcheck float64:", gradcheck(Cube.apply, (x32.detach().double().requires_grad_(),)))
