# The follow-ups of custom-autograd-function, on the pinned torch: what the engine does with a
# gradient of the wrong shape, gradcheck in float32, double backward and once_differentiable,
# save_for_backward against a tensor on ctx, and a Function autograd cannot replace.
import warnings

import torch
from torch.autograd.function import once_differentiable
from torch.autograd.gradcheck import GradcheckError

g = torch.Generator().manual_seed(0)


def randn(*shape, requires_grad=False):
    return torch.randn(*shape, generator=g, dtype=torch.float64).requires_grad_(requires_grad)


class Unreduced(torch.autograd.Function):
    """x * sigmoid(y * scale) whose backward returns y's gradient with x's shape."""

    @staticmethod
    def forward(ctx, x, y, scale):
        ctx.grad_mode = torch.is_grad_enabled()
        s = torch.sigmoid(y * scale)
        ctx.save_for_backward(x, s)
        ctx.scale = scale
        return x * s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        return grad_out * s, grad_out * x * s * (1 - s) * ctx.scale, None


x, y = randn(5, 8, requires_grad=True), randn(8, requires_grad=True)
out = Unreduced.apply(x, y, 2.0)
print("inside forward, grad mode enabled:", out.grad_fn.grad_mode,
      "| ctx.needs_input_grad:", out.grad_fn.needs_input_grad)
print("backward called directly, y's gradient:", tuple(out.grad_fn.apply(torch.ones_like(out))[1].shape))
out = Unreduced.apply(x, y, 2.0)
(gy,) = torch.autograd.grad(out.sum(), y)
plain = torch.autograd.grad((x * torch.sigmoid(y * 2.0)).sum(), y)[0]
print("through the engine, y's gradient:", tuple(gy.shape), "| equals the summed one:",
      torch.allclose(gy, plain))


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, grad_out[:, :3]  # y is (8,): (5, 3) cannot be summed to it


try:
    torch.autograd.grad(WrongShape.apply(x, y).sum(), (x, y))
except RuntimeError as exc:
    print("a gradient that cannot be summed to y's shape:", exc)


class MulSigmoid(torch.autograd.Function):
    """The reference: saves x and s = sigmoid(y * scale), an intermediate."""

    @staticmethod
    def forward(ctx, x, y, scale):
        s = torch.sigmoid(y * scale)
        ctx.save_for_backward(x, s)
        ctx.scale, ctx.y_shape = scale, y.shape
        return x * s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        return grad_out * s, (grad_out * x * s * (1 - s) * ctx.scale).sum_to_size(ctx.y_shape), None


class FromInputs(torch.autograd.Function):
    """Saves x and y and recomputes s in backward, with torch ops autograd can follow."""

    @staticmethod
    def forward(ctx, x, y, scale):
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        return x * torch.sigmoid(y * scale)

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        s = torch.sigmoid(y * ctx.scale)
        return grad_out * s, (grad_out * x * s * (1 - s) * ctx.scale).sum_to_size(y.shape), None


class Once(MulSigmoid):
    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        return MulSigmoid.backward(ctx, grad_out)


# gradcheck: float64 passes; float32 warns, then fails on finite-difference noise.
x64, y64 = randn(3, 4, requires_grad=True), randn(4, requires_grad=True)
print("gradcheck float64:", torch.autograd.gradcheck(lambda a, b: MulSigmoid.apply(a, b, 1.5),
                                                     (x64, y64)))
x32, y32 = (t.detach().float().requires_grad_() for t in (x64, y64))
print("float32 machine epsilon:", torch.finfo(torch.float32).eps)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        torch.autograd.gradcheck(lambda a, b: MulSigmoid.apply(a, b, 1.5), (x32, y32))
    except GradcheckError as exc:
        print("gradcheck float32:", str(exc).splitlines()[0])
    print("its warnings:", sorted({str(w.message).strip() for w in caught}))
    print("gradcheck float32, atol=1e-2 rtol=1e-2, eps=1e-3:",
          torch.autograd.gradcheck(lambda a, b: MulSigmoid.apply(a, b, 1.5), (x32, y32),
                                   eps=1e-3, atol=1e-2, rtol=1e-2))

# Double backward: gradgradcheck on the three versions.
torch.manual_seed(0)  # gradgradcheck draws its random grad_outputs from torch's default generator
for fn in (MulSigmoid, FromInputs):
    try:
        ok = torch.autograd.gradgradcheck(lambda a, b, f=fn: f.apply(a, b, 1.5), (x64, y64))
        print(f"gradgradcheck {fn.__name__}: {ok}")
    except (GradcheckError, RuntimeError) as exc:
        print(f"gradgradcheck {fn.__name__}: {type(exc).__name__}: {str(exc).splitlines()[0]}")


# once_differentiable runs backward under no_grad: the gradient it returns has no history, and
# when grad_out itself requires grad it gets a grad_fn that raises.
for v in (torch.ones(3, 4, dtype=torch.float64), torch.ones(3, 4, dtype=torch.float64,
                                                            requires_grad=True)):
    (gx,) = torch.autograd.grad(Once.apply(x64, y64, 1.5), x64, v, create_graph=True)
    try:
        gx.sum().backward()
    except RuntimeError as exc:
        print(f"once_differentiable, grad_out requires grad {v.requires_grad}: RuntimeError: {exc}")

# save_for_backward against a tensor kept on ctx: x changed in place between forward and backward.


class OnCtx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, scale):
        ctx.x, ctx.s, ctx.scale = x, torch.sigmoid(y * scale), scale
        return x * ctx.s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.x, ctx.s
        return grad_out * s, (grad_out * x * s * (1 - s) * ctx.scale).sum_to_size(s.shape), None


for fn in (MulSigmoid, OnCtx):
    x, y = randn(3, 4, requires_grad=True), randn(4, requires_grad=True)
    right = torch.autograd.grad(fn.apply(x, y, 2.0).sum(), y)[0]
    out = fn.apply(x, y, 2.0)
    with torch.no_grad():
        x.mul_(3.0)  # an optimizer step between forward and backward
    try:
        got = torch.autograd.grad(out.sum(), y)[0]
        print(f"{fn.__name__}: no error; y's gradient equals the one before the change:",
              torch.allclose(got, right))
    except RuntimeError as exc:
        print(f"{fn.__name__}: RuntimeError: {str(exc).split('. ')[0]}")


# Where exp overflows in float32, and what the derivative exp(-z) / (1 + exp(-z)) ** 2 gives there.
z = torch.tensor([-88.0, -89.0, -100.0])
print("float32 exp(-z) for z = -88, -89, -100:", torch.exp(-z).tolist(),
      "| exp(-z) / (1 + exp(-z)) ** 2:", (torch.exp(-z) / (1 + torch.exp(-z)) ** 2).tolist(),
      "| s * (1 - s):", (torch.sigmoid(z) * (1 - torch.sigmoid(z))).tolist())


# A Function autograd cannot replace: round with a straight-through gradient.
class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


w = torch.tensor([0.2, 1.7, -0.6], requires_grad=True)
print("gradient of torch.round:", torch.autograd.grad(torch.round(w).sum(), w)[0].tolist())
print("gradient of RoundSTE:", torch.autograd.grad(RoundSTE.apply(w).sum(), w)[0].tolist())
