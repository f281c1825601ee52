import torch
from torch.func import grad, vmap


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x**2


class CubeOldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x**2


class CubeVmappable(Cube):
    generate_vmap_rule = True


x = torch.tensor([1.0, 2.0, 3.0])
print("grad(Cube) at 2.0:", grad(Cube.apply)(x[1]).item())
print("vmap(grad(CubeVmappable)):", vmap(grad(CubeVmappable.apply))(x).tolist())
for fn, transform in ((CubeOldStyle, grad), (Cube, vmap)):
    try:
        transform(fn.apply)(x if transform is vmap else x[0])
    except RuntimeError as e:
        print(f"{transform.__name__}({fn.__name__}): RuntimeError: {e}")
print("vmap(CubeVmappable):", vmap(CubeVmappable.apply)(x).tolist())
